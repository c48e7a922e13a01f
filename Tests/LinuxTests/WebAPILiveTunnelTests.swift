import App
import AppLinux
import Foundation
import Linux
import Shared
import Synchronization
import TestSupport
import Testing

/// The web API's questions that need the tunnel, against a real one: `run` inside the lab's host
/// namespace fetches a file and then waits; meanwhile the API (over the data directory's control
/// socket, `TunnelControl.channel`) and the web live feed are compared with the commands, which run
/// inside the lab's host namespace too. Needs root.
@Suite("The web API over a running tunnel", .serialized)
struct WebAPILiveTunnelTests {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Asks `api` and the command (in the lab's host namespace) until their documents, without
    /// `ignoring`, agree (counters may move between the two asks); the last pair.
    static func agree(_ api: WebAPI, _ path: String, method: String = "GET", command: [String], in lab: Lab,
                      ignoring: Set<String> = []) async throws -> (api: [String: Any], command: [String: Any], equal: Bool) {
        var last: ([String: Any], [String: Any]) = ([:], [:])
        for _ in 0..<5 {
            let response = await api.respond(to: HTTPRequest(method: method, target: path, path: path))
            guard case .bytes(let bytes) = response.body else { break }
            let ran = try Self.run(command, in: lab)
            var fromAPI = try object(String(decoding: bytes, as: UTF8.self))
            // The command's last line: `live`'s first one is drawn before its reader has read.
            var fromCommand = try object(String(ran.out.split(separator: "\n").last ?? ""))
            for key in ignoring { fromAPI[key] = nil; fromCommand[key] = nil }
            last = (fromAPI, fromCommand)
            if canonical(fromAPI) == canonical(fromCommand) { return (fromAPI, fromCommand, true) }
            try await Task.sleep(for: .milliseconds(300))
        }
        return (last.0, last.1, false)
    }

    /// The document re-encoded with sorted keys, one value a line: two documents agree when these do.
    static func canonical(_ object: [String: Any]) -> [String] {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])) ?? Data()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Where two documents part, for the failure message.
    static func difference(_ a: [String: Any], _ b: [String: Any]) -> String {
        let (left, right) = (canonical(a), canonical(b))
        return zip(left, right).filter { $0 != $1 }.prefix(5).map { "\($0) ≠ \($1)" }.joined(separator: "; ")
    }

    /// The live line's counters of records read from the ring, and the top talkers they make: each
    /// reader's own (the command's and the web feed's read at different times), compared by shape only.
    static let consumed: Set<String> = ["bytesIn", "bytesInText", "bytesOut", "bytesOutText", "packets", "connections",
                                        "dropped", "droppedNote", "topTalkers"]

    static func run(_ arguments: [String], in lab: Lab) throws -> (status: Int32, out: String, err: String) {
        let ip = URL(fileURLWithPath: ExternalCommand.locate("ip") ?? "/usr/sbin/ip")
        return try BuiltProduct.run(ip, Array(lab.host.command(arguments).dropFirst()))
    }

    @Test("live lines every second, /api/live/now, diagnostics, captures and a rotation: what live, diagnostics and captures say")
    func runningTunnel() async throws {
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("web-api-live")
        let www = work.url.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 200_000).write(to: www.appendingPathComponent("file.bin"))
        let server = try LabScripts.start([LabScripts.python, "-m", "http.server", "8080", "--bind", Lab.serverIPv4,
                                           "--directory", www.path], in: lab.server)
        defer { LabScripts.stop(server) }
        try LabScripts.waitForListener(Lab.serverIPv4, 8080, from: lab.host)

        let data = work.url.appendingPathComponent("data")
        let fetched = work.url.appendingPathComponent("fetched"), release = work.url.appendingPathComponent("release")
        let tunnelvision = try BuiltProduct.url("tunnelvision").path
        let script = "curl -sS -o /dev/null http://\(Lab.serverIPv4):8080/file.bin && touch '\(fetched.path)'; "
            + "for i in $(seq 36000); do [ -e '\(release.path)' ] && exit 0; sleep 0.1; done; exit 9"
        let tunnel = try LabScripts.start([tunnelvision, "run", "--data-dir", data.path, "--", "bash", "-c", script], in: lab.host)
        defer {
            _ = FileManager.default.createFile(atPath: release.path, contents: nil)
            tunnel.waitUntilExit()
        }
        // Waits sized for the whole suite's shared machine; the release file ends the run at once.
        for _ in 0..<1_200 where !FileManager.default.fileExists(atPath: fetched.path) { try await Task.sleep(for: .milliseconds(100)) }
        try #require(FileManager.default.fileExists(atPath: fetched.path), "the monitored curl did not finish")
        #expect(TunnelControl.channel.presence(in: data) == .live)

        let liveCommand = ["timeout", "2.5", tunnelvision, "live", "--json", "--data-dir", data.path]
        // The live feed of a watched web app: one line a second, each the object 'live --json' prints.
        let lines = Lines()
        let feed = WebLiveFeed(dataDirectory: data)
        await feed.start(publish: lines.append, streams: { 1 })
        // Two lines at least, a second apart; the deadline is the whole suite's shared machine's,
        // whose cooperative pool other tests' blocking calls can hold for seconds.
        for _ in 0..<300 where lines.all.count < 2 { try await Task.sleep(for: .milliseconds(100)) }
        let api = WebAPI(dataDirectory: data, liveFeed: feed)
        let live = await api.respond(to: HTTPRequest(method: "GET", target: "/api/live", path: "/api/live"))
        #expect(live.body == .eventStream && live.headers["Content-Type"] == "text/event-stream")
        let response = await api.respond(to: HTTPRequest(method: "GET", target: "/api/live/now", path: "/api/live/now"))
        guard case .bytes(let nowBytes) = response.body else { Issue.record("/api/live/now is not a document"); return }
        let fromAPI = try Self.object(String(decoding: nowBytes, as: UTF8.self))
        #expect(fromAPI["state"] as? String == "live" && fromAPI["attached"] as? Bool == true)
        // The ring has one reader: while the web feed reads, the command is refused and says why,
        // rather than taking half the records.
        let refused = try Self.object(String(try Self.run(liveCommand, in: lab).out.split(separator: "\n").last ?? ""))
        #expect(refused["state"] as? String == "unreadable" && refused["attached"] as? Bool == false, "\(refused)")
        #expect((refused["problem"] as? String)?.contains("one reader at a time") == true, "\(refused)")
        // The feed read the fetch's records: its counters say the file came in.
        let fetchedLine = try Self.object(await feed.current())
        #expect((fetchedLine["bytesIn"] as? Int ?? 0) > 200_000, "\(fetchedLine)")
        await feed.stop()
        // Once the web feed has let go, the command reads, and says what /api/live/now said.
        var now = (api: fromAPI, command: try Self.object(String(try Self.run(liveCommand, in: lab).out.split(separator: "\n").last ?? "")))
        // And what each reader's own second decides: its time and rates.
        let ownSecond = Self.consumed.union(["time", "bytesInPerSecond", "bytesInPerSecondText", "bytesOutPerSecond", "bytesOutPerSecondText"])
        for key in ownSecond {
            now.api[key] = nil
            now.command[key] = nil
        }
        #expect(Self.canonical(now.api) == Self.canonical(now.command), "\(Self.difference(now.api, now.command))")
        // A web app nobody watches never holds the ring: the command reads beside it (before,
        // an idle 'ui' kept every other reader out for as long as it ran).
        let idle = WebLiveFeed(dataDirectory: data)
        await idle.start(publish: { _ in Issue.record("an unwatched feed published") }, streams: { 0 })
        let beside = try Self.object(String(try Self.run(liveCommand, in: lab).out.split(separator: "\n").last ?? ""))
        #expect(beside["state"] as? String == "live" && beside["attached"] as? Bool == true, "\(beside)")
        await idle.stop()
        let published = lines.all
        #expect(published.count >= 2, "\(published)")
        for line in published {
            let object = try Self.object(line)
            let expected = (now.command.keys.sorted() + ownSecond).sorted()
            #expect(object["state"] as? String == "live" && object.keys.sorted() == expected)
        }

        let diagnostics = try await Self.agree(api, "/api/diagnostics", command: [tunnelvision, "diagnostics", "--json", "--data-dir", data.path], in: lab)
        #expect(diagnostics.equal, "\(Self.difference(diagnostics.api, diagnostics.command))")
        #expect(diagnostics.api["monitoring"] as? Bool == true)

        let captures = try await Self.agree(api, "/api/captures", command: [tunnelvision, "captures", "--json", "--data-dir", data.path], in: lab)
        #expect(captures.equal, "\(Self.difference(captures.api, captures.command))")
        #expect(captures.api["tunnel"] as? String == "live")
        let recording = try #require((captures.api["captures"] as? [[String: Any]])?.first { $0["recording"] as? Bool == true }?["sequence"] as? Int)

        // A rotation by the API, then one by the command: each says the file it now records into.
        let rotated = await api.respond(to: HTTPRequest(method: "POST", target: "/api/captures/rotate", path: "/api/captures/rotate"))
        #expect(rotated.status == .ok)
        guard case .bytes(let bytes) = rotated.body else { Issue.record("no body"); return }
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"rotated":true,"recording":\#(recording + 1)}"# + "\n")
        let byCommand = try Self.run([tunnelvision, "captures", "rotate", "--json", "--data-dir", data.path], in: lab)
        #expect(byCommand.out == #"{"rotated":true,"recording":\#(recording + 2)}"# + "\n", "\(byCommand.err)")
    }
}
