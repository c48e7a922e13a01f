import Foundation
import Linux
import Synchronization
import TestSupport
import Testing

/// The web app started beside a run (`run --ui`) and after the demo (`demo --ui`): the real
/// binary, its address read off standard error, the app asked over HTTP with curl and a cookie jar,
/// as a browser would log in. Needs root (namespaces).
@Suite("The web app beside a run and after the demo", .serialized)
struct WebAppBesideTests {
    /// Standard error as it arrives, so a test can wait for a line.
    final class Collected: Sendable {
        private let text = Mutex("")
        func append(_ data: Data) { text.withLock { $0 += String(decoding: data, as: UTF8.self) } }
        var all: String { text.withLock { $0 } }

        func wait(for needle: String, seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if all.contains(needle) { return true }
                usleep(100_000)
            }
            return all.contains(needle)
        }

        /// The address after "TunnelVision is at ".
        var url: String? {
            guard let range = all.range(of: "TunnelVision is at ") else { return nil }
            return all[range.upperBound...].split(separator: " ").first.map(String.init)
        }
    }

    static func start(_ executable: String, _ arguments: [String]) throws -> (Process, Collected) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardError = pipe
        let collected = Collected()
        pipe.fileHandleForReading.readabilityHandler = { handle in collected.append(handle.availableData) }
        try process.run()
        return (process, collected)
    }

    /// curl (in `namespace`'s network when given) with a cookie jar: logs in with the key, then
    /// asks `path`; the body.
    static func ask(_ url: String, _ path: String, jar: URL, namespace: [String] = []) throws -> (status: Int32, out: String) {
        let curl = ExternalCommand.locate("curl") ?? "/usr/bin/curl"
        let origin = String(url.prefix { $0 != "?" }).replacingOccurrences(of: "/$", with: "", options: .regularExpression)
        let login = namespace + [curl, "-sS", "-o", "/dev/null", "-c", jar.path, "-b", jar.path, url]
        let ask = namespace + [curl, "-sS", "--max-time", "10", "-b", jar.path, "-H", "X-TunnelVision: 1", origin + path]
        let launcher = URL(fileURLWithPath: ExternalCommand.locate("env") ?? "/usr/bin/env")
        _ = try BuiltProduct.run(launcher, login)
        let result = try BuiltProduct.run(launcher, ask)
        return (result.status, result.out)
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text.prefix(300))")
    }

    @Test("run --ui serves the run's live session while the command runs, and stops with it, keeping the command's status")
    func beside() async throws {
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("web-beside-run")
        let data = work.url.appendingPathComponent("data")
        let tunnelvision = try BuiltProduct.url("tunnelvision").path
        let ip = ExternalCommand.locate("ip") ?? "/usr/sbin/ip"
        let arguments = Array(lab.host.command([tunnelvision, "run", "--ui", "--no-open", "--data-dir", data.path, "--",
                                                "sh", "-c", "sleep 6; exit 3"]).dropFirst())
        let (run, stderr) = try Self.start(ip, arguments)
        defer { if run.isRunning { LabScripts.stop(run) } }
        #expect(stderr.wait(for: "TunnelVision is at ", seconds: 20), "no address on stderr:\n\(stderr.all)")
        #expect(stderr.all.contains("it stops when the run ends"))
        let url = try #require(stderr.url)
        // The server listens on the loopback of the namespace run runs in: asked from there.
        let inHost = Array(lab.host.command([]))
        let jar = work.url.appendingPathComponent("jar")
        var live: [String: Any] = [:]
        for _ in 0..<30 {
            live = try Self.object(try Self.ask(url, "/api/live/now", jar: jar, namespace: inHost).out)
            if live["state"] as? String == "live" { break }
            usleep(200_000)
        }
        #expect(live["state"] as? String == "live" && live["attached"] as? Bool == true, "\(live)")
        let page = try Self.ask(url, "/", jar: jar, namespace: inHost).out
        #expect(page.contains("<title>"), "the app's page: \(page.prefix(200))")

        run.waitUntilExit()
        #expect(run.terminationStatus == 3, "run's status is the command's")
        #expect(stderr.wait(for: "the web app stopped with the run", seconds: 2), "\(stderr.all)")
        let after = try Self.ask(url, "/api/live/now", jar: jar, namespace: inHost)
        #expect(after.status != 0, "the server is gone with the run: curl got \(after.out.prefix(100))")
    }

    @Test("demo --ui leaves the web app open on the demo's named history until TERM, then removes its temporary data")
    func afterTheDemo() async throws {
        let tunnelvision = try BuiltProduct.url("tunnelvision").path
        let (demo, stderr) = try Self.start(tunnelvision, ["demo", "--ui", "--no-open"])
        defer { if demo.isRunning { LabScripts.stop(demo) } }
        #expect(stderr.wait(for: "TunnelVision is at ", seconds: 240), "no address on stderr:\n\(stderr.all)")
        let url = try #require(stderr.url)
        let data = try #require(stderr.all.range(of: "data in ").map { range in
            String(stderr.all[range.upperBound...].prefix { $0 != ")" })
        })
        #expect(FileManager.default.fileExists(atPath: data))
        let work = TemporaryDirectory("web-after-demo")
        let flows = try Self.object(try Self.ask(url, "/api/flows", jar: work.url.appendingPathComponent("jar")).out)
        let rows = try #require(flows["flows"] as? [[String: Any]])
        let sources = Set(rows.compactMap { $0["nameSource"] as? String })
        #expect(sources.isSuperset(of: ["sni", "quic", "dns"]), "name sources: \(sources)")
        #expect((flows["bursts"] as? [Any])?.isEmpty == false, "the demo's burst is summarised")

        demo.terminate()
        demo.waitUntilExit()
        #expect(demo.terminationStatus == 0, "\(stderr.all.suffix(400))")
        #expect(!FileManager.default.fileExists(atPath: data), "the demo's temporary data directory is removed")
    }
}
