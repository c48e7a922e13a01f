#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A blocking TCP client on loopback that sends exactly the bytes a test writes — a dribble, a
/// malformed line, a request it never finishes — and reads what the server answers, with
/// timeouts so a test cannot hang.
final class RawHTTPClient: @unchecked Sendable {
    let descriptor: Int32

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(port: UInt16) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let failure = errno
            close(descriptor)
            throw Failure(description: "connect: errno \(failure)")
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "send: errno \(errno)") }
            sent += count
        }
    }

    /// Bytes until `done` says the text so far is complete, the peer closes, or `timeout` passes.
    /// `readBlocking` on a thread of its own, so the waiting test leaves the cooperative pool —
    /// where the server's responder runs — free.
    func read(timeout: Duration = .seconds(5), until done: @escaping @Sendable (String) -> Bool) async -> (text: String, closed: Bool) {
        (try? await onOwnThread { self.readBlocking(timeout: timeout, until: done) }) ?? ("", false)
    }

    func readBlocking(timeout: Duration, until done: (String) -> Bool) -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !done(String(decoding: received, as: UTF8.self)) {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { break }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            guard poll(&poller, 1, max(1, milliseconds)) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { Glibc.recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return (String(decoding: received, as: UTF8.self), true) }
            received += buffer[..<count]
        }
        return (String(decoding: received, as: UTF8.self), false)
    }

    /// One whole response: its head and the Content-Length bytes after it.
    func response(timeout: Duration = .seconds(5)) async -> String {
        await read(timeout: timeout) { text in
            guard let end = text.range(of: "\r\n\r\n") else { return false }
            let head = text[..<end.lowerBound].lowercased()
            guard let field = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
                  let length = Int(field.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) else {
                return true
            }
            return text[end.upperBound...].utf8.count >= length
        }.text
    }

    /// Whether the server closes the connection within `timeout` (reading and dropping anything before).
    func closes(within timeout: Duration) async -> Bool {
        await read(timeout: timeout) { _ in false }.closed
    }
}
