import App
import AppLinux
import Foundation
import Testing
import TestSupport

/// The server's one life: made, maybe started, stopped — and `stop` returns whichever came before.
@Suite("WebServer lifecycle", .serialized)
struct WebServerLifecycleTests {
    @Test("stop() before start() returns at once, closes the port, and a second stop() returns too")
    func stopBeforeStart() throws {
        let server = try WebServer(responder: EchoResponder()) { _ in }
        let port = server.address.port
        #expect((try? RawHTTPClient(port: port)) != nil, "the port listens before stop()")
        #expect(OwnListeners.ports().contains(port), "the port is not among this process's listeners")
        let returned = DispatchSemaphore(value: 0)
        Thread {
            server.stop()
            server.stop()
            returned.signal()
        }.start()
        let stopped = returned.wait(timeout: .now() + 5) == .success
        #expect(stopped, "stop() before start() was still waiting after 5 s")
        guard stopped else { return }
        #expect(!OwnListeners.ports().contains(port), "the port still listens after stop()")
        server.start()   // after stop: nothing to serve, and it must not start a loop that no stop would end
        #expect(!OwnListeners.ports().contains(port), "start() after stop() listens again")
    }

    @Test("stop() after start() closes the connections and the port, and a second stop() returns")
    func stopAfterStart() async throws {
        let server = try WebServer(responder: EchoResponder()) { _ in }
        server.start()
        let port = server.address.port
        let client = try RawHTTPClient(port: port)
        try client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        _ = await client.read(timeout: .seconds(5)) { $0.contains("\r\n\r\n") }
        try await onOwnThread {
            server.stop()
            server.stop()
        }
        #expect(!OwnListeners.ports().contains(port), "the port still listens after stop()")
    }
}
