#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import Testing
import TestSupport

/// A slowloris against the real `tunnelvision ui`: hundreds of connections, each holding a request
/// head it never finishes, reopened as soon as the server closes one — while the owner, with the
/// session cookie, keeps asking for a page and an API answer.
@Suite("the web door under a slowloris", .serialized)
struct WebSlowlorisTests {
    /// `connections` sockets on loopback, each sending the start of a request head and holding it;
    /// any the server closes is opened again at once, until `stop()`.
    final class Slowloris: @unchecked Sendable {
        let port: UInt16
        let connections: Int
        let head: String
        private let stopping = Atomic(false)
        /// How many the server closed (evicted, or timed out with 408).
        let closedByServer = Atomic(0)
        let opened = Atomic(0)
        private var thread: Thread?
        private let finished = DispatchSemaphore(value: 0)

        init(port: UInt16, connections: Int) {
            self.port = port
            self.connections = connections
            head = "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUser-Agent: slowloris\r\nX-Slow: "
        }

        func start() {
            let thread = Thread { [self] in
                run()
                finished.signal()
            }
            self.thread = thread
            thread.start()
        }

        /// Closes every connection and returns once the thread has; a second call returns at once.
        func stop() {
            guard !stopping.exchange(true, ordering: .relaxed) else { return }
            finished.wait()
        }

        private func open() -> Int32? {
            guard let client = try? RawHTTPClient(port: port) else { return nil }
            let descriptor = dup(client.descriptor)   // the client closes its own on deinit
            _ = head.withCString { send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            opened.add(1, ordering: .relaxed)
            return descriptor
        }

        private func run() {
            var sockets = (0..<connections).compactMap { _ in open() }
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !stopping.load(ordering: .relaxed) {
                var polled = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
                guard poll(&polled, nfds_t(polled.count), 50) > 0 else { continue }
                for (index, entry) in polled.enumerated() where entry.revents != 0 {
                    let count = buffer.withUnsafeMutableBytes { recv(entry.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                    guard count <= 0 else { continue }   // a 408 on its way; its close comes next
                    close(entry.fd)
                    closedByServer.add(1, ordering: .relaxed)
                    sockets[index] = open() ?? -1
                }
                sockets.removeAll { $0 < 0 }
            }
            sockets.forEach { close($0) }
        }
    }

    /// One request with the cookie on a connection of its own: the status and how long it took.
    static func ask(_ path: String, port: UInt16, cookie: String) async throws -> (status: Int?, took: Duration) {
        let started = ContinuousClock.now
        let client = try RawHTTPClient(port: port)
        try client.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\nConnection: close\r\n\r\n")
        let answer = await client.response(timeout: .seconds(9))
        return (WebServerTests.status(answer), ContinuousClock.now - started)
    }

    @Test("300 connections holding half-sent heads, reopened as fast as the server closes them, never keep the owner's page and API from answering")
    func flood() async throws {
        let ui = try await RunningUI()
        let cookie = try #require(try await ui.login(ui.url))
        let flood = Slowloris(port: ui.port, connections: 300)
        flood.start()
        defer { flood.stop() }
        // Past the cap: the server has closed the oldest to take the newest, 44 at least.
        #expect(await eventually(within: .seconds(10)) { flood.closedByServer.load(ordering: .relaxed) >= 44 },
                "the flood never reached the cap: \(flood.opened.load(ordering: .relaxed)) opened")
        // Longer than the request deadline (10 s from a head's first byte): whether a held head is
        // evicted for a newer one or times out, it is reopened, and the owner is answered throughout
        // — three rounds at least, however slowly a loaded machine gets through them.
        let until = ContinuousClock.now + .seconds(12)
        var rounds = 0, slowest = Duration.zero
        while rounds < 3 || ContinuousClock.now < until {
            for path in ["/", "/api/settings"] {
                let (status, took) = try await Self.ask(path, port: ui.port, cookie: cookie)
                #expect(status == 200, "GET \(path) during the flood, round \(rounds)")
                slowest = max(slowest, took)
            }
            rounds += 1
            try await Task.sleep(for: .milliseconds(200))
        }
        // Alone on an idle machine the slowest answer takes well under a second (measured: 12 rounds in
        // 12 s); beside the whole suite on two cores, 6 s and once 19.7 s were seen — the CPU timed,
        // not the server, which is why scripts/test runs this test in a stage of its own. The bound
        // is what the owner is promised: answered before a held head's own 10 s deadline, every round.
        #expect(slowest < .seconds(9), "the owner waited \(slowest) for an answer during the flood")
        let closed = flood.closedByServer.load(ordering: .relaxed)
        #expect(closed >= 300, "the flood's heads were evicted or timed out, and reopened: \(closed) closed")
        flood.stop()
        // After it, a new browser is let in as before.
        let link = try ui.link(["--json"])
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(link.out.utf8)) as? [String: Any])
        let fresh = try #require(answer["url"] as? String)
        let second = try #require(try await ui.login(fresh))
        #expect(try await Self.ask("/api/settings", port: ui.port, cookie: second).status == 200)
        #expect(!ui.stderr.contains(" 503 "), "nobody was told the server was full: \(ui.stderr.suffix(300))")
        #expect(try await ui.stop() == 0)
    }
}
