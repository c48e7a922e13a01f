#if canImport(Glibc)
import Glibc
#endif
import AppLinux
import Foundation
import Linux
import Posix
import Shared
import TestSupport
import Testing

/// The control channel over a real Unix socket, served by a real event loop on its own thread.
@Suite("The control socket", .serialized)
struct ControlSocketTests {
    let directory = TemporaryDirectory("control")
    var path: String { directory.url.appendingPathComponent("control.sock").path }

    /// A loop on its own thread serving `handler` at `path`; stopped when the test is done.
    final class Served: @unchecked Sendable {
        let loop: EventLoop
        let thread: Thread
        var server: ControlServer!

        init(path: String, handler: @escaping ControlServer.Handler) throws {
            loop = try EventLoop()
            let loop = loop
            server = try ControlServer(path: path, loop: loop, handler: handler)
            thread = Thread { try? loop.run() }
            thread.start()
        }

        func stop() {
            let done = DispatchSemaphore(value: 0)
            loop.execute { [self] in
                server?.close()
                loop.stop()
                done.signal()
            }
            done.wait()
        }
    }

    @Test("a command goes in and its response comes back; the socket is the owner's alone")
    func roundTrip() throws {
        let served = try Served(path: path) { command in
            switch command {
            case .stats: .stats(TunnelStats(pipeline: PipelineStats(packetsHandled: 42), relay: RelayStats(tcpFlowsOpened: 3)))
            case .rotateCapture: .ok
            default: .failed("not here")
            }
        }
        defer { served.stop() }
        guard case .stats(let stats) = try ControlClient.send(.stats, to: path) else {
            Issue.record("not a stats answer")
            return
        }
        #expect(stats.pipeline.packetsHandled == 42)
        #expect(stats.relay?.tcpFlowsOpened == 3)
        #expect(try ControlClient.send(.rotateCapture, to: path) == .ok)
        #expect(try ControlClient.send(.setCaptureEnabled(false), to: path) == .failed("not here"))
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
    }

    @Test("another program's bytes get a failed answer naming the problem, and the server keeps serving")
    func malformed() throws {
        let served = try Served(path: path) { _ in .ok }
        defer { served.stop() }
        let answer = try ExternalCommand.run([ "python3", "-c", """
            import socket
            s = socket.socket(socket.AF_UNIX); s.connect('\(path)'); s.sendall(b'{"jsonrpc":"2.0"}\\n')
            print(s.makefile().readline().strip())
            """]).standardOutput
        let response = try ControlChannel.decodeResponse(Data(answer.utf8.dropLast()))
        guard case .failed(let reason) = response else {
            Issue.record("expected a failed answer, got \(response)")
            return
        }
        #expect(reason.contains("malformed"))
        #expect(try ControlClient.send(.stats, to: path) == .ok)
    }

    @Test("with no tunnel the client says nothing is running; closing removes the socket file")
    func notRunning() throws {
        #expect(throws: ControlSocketError.notRunning(path)) { try ControlClient.send(.stats, to: path) }
        let served = try Served(path: path) { _ in .ok }
        served.stop()
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
