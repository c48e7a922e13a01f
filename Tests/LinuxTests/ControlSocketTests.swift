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

    /// Runs a Python client against `path` and hands back what it printed, trimmed.
    func python(_ script: String) throws -> String {
        try ExternalCommand.run(["python3", "-c", "import socket, sys, time, json\npath = '\(path)'\n" + script])
            .standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a client that does not read a 1 MB reply does not hold the loop: another is answered at once, and the reply arrives whole when read")
    func unreadReplyDoesNotBlock() throws {
        let big = String(repeating: "x", count: 1_000_000)
        let served = try Served(path: path) { command in command == .rotateCapture ? .failed(big) : .ok }
        defer { served.stop() }
        // The deaf client asks, says so, sleeps 0.8 s without reading, then reads everything.
        let deaf = Process()
        deaf.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        deaf.arguments = ["python3", "-c", """
            import socket, time
            s = socket.socket(socket.AF_UNIX); s.connect('\(path)'); s.sendall(b'{"command":"rotateCapture"}\\n')
            print('sent', flush=True)
            time.sleep(0.8)
            data = b''
            while True:
                chunk = s.recv(1 << 20)
                if not chunk: break
                data += chunk
            print(len(data), data.endswith(b'\\n'))
            """]
        let output = Pipe()
        deaf.standardOutput = output
        try deaf.run()
        let sent = output.fileHandleForReading.availableData   // "sent"
        #expect(String(decoding: sent, as: UTF8.self).hasPrefix("sent"))
        #expect(try eventually { try SocketTable.unreadRepliesUnix(path: path).contains { $0 > 0 } },
                "the server never queued the deaf client's reply")
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try ControlClient.send(.stats, to: path) == .ok)
        let elapsed = clock.now - start
        print("control socket: a command answered in \(elapsed) while another client left a 1 MB reply unread")
        #expect(elapsed < .milliseconds(200))
        deaf.waitUntilExit()
        let read = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let expected = ControlChannel.encode(ControlResponse.failed(big)).count + 1
        #expect(read.trimmingCharacters(in: .whitespacesAndNewlines) == "\(expected) True")
    }

    @Test("a command longer than the limit without a newline is refused with the limit named, closed, and counted")
    func overLongRefused() throws {
        let served = try Served(path: path) { _ in .stats(TunnelStats()) }
        defer { served.stop() }
        let told = try python("""
            s = socket.socket(socket.AF_UNIX); s.settimeout(5); s.connect(path)
            try:
                s.sendall(b'{' * 60000)
            except OSError:
                pass
            print(s.makefile('rb').readline().decode().strip())
            """)
        guard case .failed(let reason) = try ControlChannel.decodeResponse(Data(told.utf8)) else {
            Issue.record("expected a refusal, got \(told)")
            return
        }
        #expect(reason.contains("at most \(ControlServerLimits.standard.maximumCommandBytes) bytes"))
        guard case .stats(let stats) = try ControlClient.send(.stats, to: path) else {
            Issue.record("the command was not answered with the statistics"); return
        }
        #expect(stats.control?.refusedOverLong == 1)
    }

    @Test("a client that sends nothing, or half a line, is told and closed after the deadline, and counted")
    func idleClosed() throws {
        let served = try Served(path: path) { _ in .stats(TunnelStats()) }
        defer { served.stop() }
        let told = try python("""
            silent = socket.socket(socket.AF_UNIX); silent.settimeout(10); silent.connect(path)
            half = socket.socket(socket.AF_UNIX); half.settimeout(10); half.connect(path); half.sendall(b'{"command":"st')
            start = time.monotonic()
            lines = [s.makefile('rb').readline().decode().strip() for s in (silent, half)]
            print(json.dumps({"seconds": time.monotonic() - start, "lines": lines}))
            """)
        let report = try #require(JSONSerialization.jsonObject(with: Data(told.utf8)) as? [String: Any])
        let seconds = try #require(report["seconds"] as? Double)
        let deadline = Double(ControlServerLimits.standard.exchangeDeadline.components.seconds)
        #expect(seconds >= deadline - 0.5 && seconds < deadline + 1.5, "closed after \(seconds) s")
        for line in try #require(report["lines"] as? [String]) {
            guard case .failed(let reason) = try ControlChannel.decodeResponse(Data(line.utf8)) else {
                Issue.record("expected a refusal, got \(line)")
                continue
            }
            #expect(reason.contains("no complete command"))
        }
        guard case .stats(let stats) = try ControlClient.send(.stats, to: path) else {
            Issue.record("the command was not answered with the statistics"); return
        }
        #expect(stats.control?.closedIdle == 2)
    }

    @Test("over the connection cap a new client is told at once and counted; a slot freed serves again")
    func overCapRefused() throws {
        let served = try Served(path: path) { _ in .stats(TunnelStats()) }
        defer { served.stop() }
        let cap = ControlServerLimits.standard.maximumConnections
        // Python holds `cap` silent connections open while the command asks.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c", """
            import socket, sys, time
            held = []
            for _ in range(\(cap)):
                s = socket.socket(socket.AF_UNIX); s.connect('\(path)'); held.append(s)
            print('held', flush=True)
            sys.stdin.readline()
            """]
        let output = Pipe()
        let input = Pipe()
        holder.standardOutput = output
        holder.standardInput = input
        try holder.run()
        defer { if holder.isRunning { holder.terminate() } }
        _ = output.fileHandleForReading.availableData   // "held"
        #expect(try eventually { try SocketTable.unacceptedUnix(path: path) == 0 }, "the loop never accepted them all")
        let refused = try ControlClient.send(.stats, to: path)
        guard case .failed(let reason) = refused else {
            Issue.record("expected a refusal over the cap, got \(refused)")
            return
        }
        #expect(reason.contains("already serving \(cap) control connections"))
        input.fileHandleForWriting.write(Data("\n".utf8))
        holder.waitUntilExit()
        #expect(try eventually { try SocketTable.unreadRepliesUnix(path: path).isEmpty }, "the loop never saw them hang up")
        guard case .stats(let stats) = try ControlClient.send(.stats, to: path) else {
            Issue.record("a freed slot did not serve")
            return
        }
        #expect(stats.control?.refusedOverCap == 1)
        #expect(stats.control?.clientsGone == UInt64(cap))
    }
}
