import Foundation
import Linux
import Posix
import Shared

/// The kernel as a script, for the relay's TCP legs: each connect, send and read answers what the
/// test queued, every call is logged in order, and the test plays the loop by firing readiness at
/// the handlers registered.
final class ScriptedRelayKernel {
    final class Socket: RelayStreamSocket {
        let descriptor: Int32
        unowned let kernel: ScriptedRelayKernel
        /// Answers to `finishConnect`, in order; `.connected` when none is left.
        var connectAnswers: [ConnectResult] = []
        /// Answers to `send`, in order; the whole buffer taken when none is left.
        var sendAnswers: [IOResult] = []
        /// Answers to `receive`, in order; `.wouldBlock` when none is left. `.received(n)` takes
        /// the next n bytes of `incoming`.
        var receiveAnswers: [ReceiveResult] = []
        var incoming = Data()
        /// What the kernel took, in order.
        private(set) var written = Data()
        private(set) var closed = false

        init(descriptor: Int32, kernel: ScriptedRelayKernel) {
            self.descriptor = descriptor
            self.kernel = kernel
        }

        func finishConnect() -> ConnectResult {
            let answer = connectAnswers.isEmpty ? .connected : connectAnswers.removeFirst()
            kernel.log.append("finishConnect → \(answer)")
            return answer
        }

        func send(_ bytes: UnsafeRawBufferPointer) -> IOResult {
            let answer = sendAnswers.isEmpty ? .processed(bytes.count) : sendAnswers.removeFirst()
            if case .processed(let count) = answer { written.append(contentsOf: bytes.prefix(count)) }
            kernel.log.append("send \(bytes.count) → \(answer)")
            return answer
        }

        func receive(into buffer: UnsafeMutableRawBufferPointer) -> ReceiveResult {
            let answer = receiveAnswers.isEmpty ? .wouldBlock : receiveAnswers.removeFirst()
            if case .received(let count) = answer {
                precondition(count <= buffer.count && count <= incoming.count, "the script reads more than there is room for")
                incoming.prefix(count).withUnsafeBytes { buffer.copyMemory(from: $0) }
                incoming.removeFirst(count)
            }
            kernel.log.append("receive → \(answer)")
            return answer
        }

        func shutdownWrite() throws(SocketError) { kernel.log.append("shutdown") }

        func close() {
            closed = true
            kernel.log.append("close")
        }

        func abort() {
            closed = true
            kernel.log.append("abort")
        }
    }

    /// Answers to `connect`, in order; a socket whose connect is under way when none is left.
    /// nil: no socket could be made.
    var connectAnswers: [ConnectResult?] = []
    private(set) var sockets: [Socket] = []
    private(set) var handlers: [Int32: EventLoop.Handler] = [:]
    private(set) var interests: [Int32: EventLoop.Interest] = [:]
    var log: [String] = []
    private var nextDescriptor: Int32 = 100

    var kernel: RelaySocketKernel {
        RelaySocketKernel(
            connect: { [unowned self] remote in
                let answer = connectAnswers.isEmpty ? .inProgress : connectAnswers.removeFirst()
                log.append("connect → \(answer.map { "\($0)" } ?? "no socket")")
                guard let answer else { return nil }
                let socket = Socket(descriptor: nextDescriptor, kernel: self)
                nextDescriptor += 1
                sockets.append(socket)
                return (socket, answer)
            },
            register: { [unowned self] descriptor, interest, handler in
                log.append("register \(Self.describe(interest))")
                handlers[descriptor] = handler
                interests[descriptor] = interest
                return true
            },
            modify: { [unowned self] descriptor, interest in
                log.append("modify \(Self.describe(interest))")
                interests[descriptor] = interest
                return handlers[descriptor] != nil
            },
            unregister: { [unowned self] descriptor in
                guard handlers.removeValue(forKey: descriptor) != nil else { return }
                log.append("unregister")
                interests[descriptor] = nil
            })
    }

    /// The loop reports `socket`: nothing happens when it is not registered.
    func fire(_ socket: Socket, _ readiness: EventLoop.Readiness) {
        handlers[socket.descriptor]?(readiness)
    }

    static func describe(_ interest: EventLoop.Interest) -> String {
        switch interest {
        case .read: "read"
        case .write: "write"
        case .both: "read+write"
        default: "nothing"
        }
    }
}
