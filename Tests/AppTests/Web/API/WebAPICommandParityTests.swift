import Foundation
import Shared
import Testing
import TestSupport
@testable import App

/// Each route of the web API against the real command: the built `tunnelvision` run with `--json`
/// over a history and captures written by the real store and writer, then `WebAPI.respond(to:)`
/// asked the same question over the same data directory — the body must be the command's standard
/// output byte for byte (where a document holds the present time, compared without it).
@Suite(.serialized) struct WebAPICommandParityTests {
    typealias C = HistoryCommandSupport

    /// No tunnel runs on these data directories: the command's control socket is not there, and
    /// the API's seam says so as the channel would.
    static let noTunnel = TunnelControl { _, _ throws(TunnelControl.Failure) in throw .notRunning }

    static func api(_ directory: URL) -> WebAPI {
        WebAPI(dataDirectory: directory, tunnel: noTunnel, liveLine: { "" })
    }

    static func ask(_ api: WebAPI, _ method: String, _ path: String, _ query: [(String, String)] = [],
                    body: String = "") async -> HTTPResponse {
        await api.respond(to: HTTPRequest(method: method, target: path, path: path,
                                          query: query.map { HTTPQueryItem($0.0, $0.1) }, body: Array(body.utf8)))
    }

    static func text(_ response: HTTPResponse) -> String {
        if case .eventStream = response.body { return "<event stream>" }
        return String(decoding: bytes(response), as: UTF8.self)
    }

    /// The body in memory, or the file's as the server would send it: its length, chunk by chunk.
    static func bytes(_ response: HTTPResponse) -> [UInt8] {
        switch response.body {
        case .bytes(let bytes): return bytes
        case .eventStream: return []
        case .file(let file):
            var out: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: HTTPConnection.bodyChunkSize)
            while UInt64(out.count) < file.length {
                let read = chunk.withUnsafeMutableBytes { file.read(at: UInt64(out.count), into: $0) } ?? 0
                guard read > 0 else { break }
                out += chunk[..<read]
            }
            return out
        }
    }

    /// The command's stdout, which must have exited `status`.
    static func command(_ arguments: [String], status: Int32 = 0) throws -> String {
        let result = try C.run(arguments)
        #expect(result.status == status, "\(arguments): \(result.err)")
        return result.out
    }

    /// `{"error": …}` of a refusal, and the sentence the command printed for the same question
    /// (its first stderr line without "tunnelvision: ").
    static func expectSameError(_ response: HTTPResponse, status: HTTPStatus, _ arguments: [String],
                                sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try C.run(arguments)
        #expect(result.status != 0, sourceLocation: sourceLocation)
        let sentence = String(result.err.split(separator: "\n").first ?? "").replacingOccurrences(of: "tunnelvision: ", with: "")
        #expect(response.status == status, sourceLocation: sourceLocation)
        let document = try C.pythonJSON(text(response))
        #expect(document["error"] as? String == sentence, sourceLocation: sourceLocation)
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8", sourceLocation: sourceLocation)
    }

    @Test("flows and activity: the body is 'flows --json' / 'activity --json' with the same options, byte for byte")
    func timelineAndActivity() async throws {
        let (history, _, _, _) = try await FlowCommandTests.history()
        let data = history.dataDirectory, api = Self.api(data)
        let d = ["--data-dir", data.path]
        let pairs: [([String], [(String, String)])] = [
            ([], []),
            (["--search", "example", "--status", "encrypted"], [("search", "example"), ("status", "encrypted")]),
            (["--search", "example -port:53 proto:tcp,udp \"x y\""], [("search", "example -port:53 proto:tcp,udp \"x y\"")]),
            (["--protocol", "udp", "--limit", "1"], [("protocol", "udp"), ("limit", "1")]),
            (["--since", "2026-11-30T02:18:00Z", "--until", "2026-12-30T00:00:00Z"],
             [("since", "2026-11-30T02:18:00Z"), ("until", "2026-12-30T00:00:00Z")]),
        ]
        for (options, query) in pairs {
            let response = await Self.ask(api, "GET", "/api/flows", query)
            #expect(response.status == .ok && response.headers["Content-Type"] == "application/json; charset=utf-8")
            #expect(try Self.text(response) == (Self.command(["flows", "--json"] + d + options)), "\(options)")
        }
        // The next page by the cursor the first page printed.
        let first = try C.pythonJSON(Self.text(await Self.ask(api, "GET", "/api/flows", [("limit", "1")])))
        let next = try #require(first["next"] as? String)
        #expect(try Self.text(await Self.ask(api, "GET", "/api/flows", [("limit", "1"), ("after", next)]))
                == (Self.command(["flows", "--json", "--limit", "1", "--after", next] + d)))
        for (options, query) in [([String](), [(String, String)]()), (["--bars", "5"], [("bars", "5")]),
                                 (["--from", "2026-11-30T02:00:00Z", "--to", "2026-11-30T03:00:00Z"],
                                  [("from", "2026-11-30T02:00:00Z"), ("to", "2026-11-30T03:00:00Z")])] {
            #expect(try Self.text(await Self.ask(api, "GET", "/api/activity", query)) == (Self.command(["activity", "--json"] + d + options)))
        }
        let gre = await Self.ask(api, "GET", "/api/flows", [("protocol", "gre")])
        try Self.expectSameError(gre, status: .badRequest, ["flows", "--protocol", "gre"] + d)
        #expect(try C.pythonJSON(Self.text(gre))["parameter"] == nil)
        // A search that cannot be read: the command's sentence, and the field with its problem for the page.
        let search = await Self.ask(api, "GET", "/api/flows", [("search", "example port:abc")])
        try Self.expectSameError(search, status: .badRequest, ["flows", "--search", "example port:abc"] + d)
        let refusal = try C.pythonJSON(Self.text(search))
        #expect(refusal["parameter"] as? String == "search")
        #expect(refusal["problem"] as? String == "'abc' in 'port:abc' is not a port: give a number from 0 to 65535 or a range such as 8000-8080")
        try Self.expectSameError(await Self.ask(api, "GET", "/api/flows", [("after", "5-999")]), status: .notFound,
                                 ["flows", "--after", "5-999"] + d)
    }

    @Test("one connection: inspector, packet detail and its capture are what 'flow ID' prints and writes")
    func oneConnection() async throws {
        let (history, tcp, dns, uncaptured) = try await FlowCommandTests.history()
        let data = history.dataDirectory, api = Self.api(data)
        let d = ["--data-dir", data.path]
        for id in [tcp, dns, uncaptured] {
            #expect(try Self.text(await Self.ask(api, "GET", "/api/flows/\(id)")) == (Self.command(["flow", "\(id)", "--json"] + d)))
        }
        #expect(try Self.text(await Self.ask(api, "GET", "/api/flows/\(tcp)", [("packets", "2")]))
                == (Self.command(["flow", "\(tcp)", "--json", "--packets", "2"] + d)))
        for number in 1...7 {
            #expect(try Self.text(await Self.ask(api, "GET", "/api/flows/\(tcp)/packets/\(number)"))
                    == (Self.command(["flow", "\(tcp)", "--json", "--packet", "\(number)"] + d)))
        }
        // A packet whose bytes were never captured: the command prints the document and exits 1.
        let missing = await Self.ask(api, "GET", "/api/flows/\(uncaptured)/packets/1")
        #expect(try missing.status == .ok && Self.text(missing)
                == (Self.command(["flow", "\(uncaptured)", "--json", "--packet", "1"] + d, status: 1)))
        for format in ["pcap", "pcapng"] {
            let file = history.temporary.url.appendingPathComponent("flow.\(format)")
            _ = try Self.command(["flow", "\(tcp)", "--\(format)", file.path] + d)
            let response = await Self.ask(api, "GET", "/api/flows/\(tcp)/capture.\(format)")
            #expect(try response.status == .ok && Self.bytes(response) == [UInt8](try Data(contentsOf: file)))
            #expect(response.headers["Content-Type"] == (format == "pcap" ? "application/vnd.tcpdump.pcap" : "application/x-pcapng"))
            #expect(response.headers["Content-Disposition"] == "attachment; filename=\"connection-\(tcp).\(format)\"")
        }
        try Self.expectSameError(await Self.ask(api, "GET", "/api/flows/999"), status: .notFound, ["flow", "999"] + d)
        try Self.expectSameError(await Self.ask(api, "GET", "/api/flows/\(tcp)/packets/99"), status: .notFound,
                                 ["flow", "\(tcp)", "--packet", "99"] + d)
        try Self.expectSameError(await Self.ask(api, "GET", "/api/flows/\(uncaptured)/capture.pcap"), status: .notFound,
                                 ["flow", "\(uncaptured)", "--pcap", history.temporary.url.appendingPathComponent("none.pcap").path] + d)
    }

    @Test("captures: the listing, a capture's download, a deletion and a rotation with no tunnel, as 'captures' answers")
    func captures() async throws {
        let (history, _, _, _) = try await FlowCommandTests.history()
        let data = history.dataDirectory, api = Self.api(data)
        let d = ["--data-dir", data.path]
        #expect(try Self.text(await Self.ask(api, "GET", "/api/captures")) == (Self.command(["captures", "--json"] + d)))
        let files = try CaptureDirectory.fileInfos(in: history.captures)
        let file = try #require(files.first)
        let download = await Self.ask(api, "GET", "/api/captures/\(file.sequence)")
        #expect(try download.status == .ok && Self.bytes(download) == [UInt8](try Data(contentsOf: file.url)))
        #expect(download.headers["Content-Disposition"] == "attachment; filename=\"\(file.url.lastPathComponent)\"")
        #expect(download.headers["Content-Type"] == "application/vnd.tcpdump.pcap")
        #expect(await Self.ask(api, "GET", "/api/captures/9999").status == .notFound)
        try Self.expectSameError(await Self.ask(api, "POST", "/api/captures/rotate"), status: .conflict, ["captures", "rotate"] + d)
        // Deleting one that is not there: the command's document (and exit status 1), then a real deletion.
        #expect(try Self.text(await Self.ask(api, "POST", "/api/captures/9999/delete"))
                == (Self.command(["captures", "rm", "9999", "--json"] + d, status: 1)))
        let (twin, _, _, _) = try await FlowCommandTests.history()
        let deleted = await Self.ask(api, "POST", "/api/captures/\(file.sequence)/delete")
        #expect(deleted.status == .ok)
        #expect(try Self.text(deleted) == (Self.command(["captures", "rm", "\(file.sequence)", "--json", "--data-dir", twin.dataDirectory.path])))
        #expect((try C.pythonJSON(Self.text(deleted)))["deleted"] as? [Int] == [Int(file.sequence)])
        #expect(!FileManager.default.fileExists(atPath: file.url.path))
        #expect(try Self.text(await Self.ask(api, "GET", "/api/captures")) == (Self.command(["captures", "--json"] + d)))
    }

    @Test("storage: usage, apply and clear are 'storage', 'storage apply' and 'storage clear --yes' in JSON")
    func storage() async throws {
        let (first, _, _, _) = try await FlowCommandTests.history()
        let api = Self.api(first.dataDirectory), d = ["--data-dir", first.dataDirectory.path]
        // The age limit's cutoff counts back from the instant each was asked: compared without it.
        let usage = Self.text(await Self.ask(api, "GET", "/api/storage"))
        #expect(usage.contains(#""historyCutoff":"20"#))
        #expect(try Self.withoutInstants(usage) == Self.withoutInstants(Self.command(["storage", "--json"] + d)))
        // Apply and clear each on one history by the API and on a twin by the command: the same
        // answer, whatever the fixture's age against today's (its week-old packets are past the
        // default age limit from 2026-12-07 on, and an apply then deletes them — on both).
        let (applyTwin, _, _, _) = try await FlowCommandTests.history()
        let applied = Self.text(await Self.ask(api, "POST", "/api/storage/apply"))
        #expect(try Self.withoutInstants(applied)
                == Self.withoutInstants(Self.command(["storage", "apply", "--json", "--data-dir", applyTwin.dataDirectory.path])))
        let (toClear, _, _, _) = try await FlowCommandTests.history()
        let (clearTwin, _, _, _) = try await FlowCommandTests.history()
        let clearing = Self.api(toClear.dataDirectory), c = ["--data-dir", toClear.dataDirectory.path]
        let cleared = await Self.ask(clearing, "POST", "/api/storage/clear")
        #expect(cleared.status == .ok)
        #expect(try Self.text(cleared) == (Self.command(["storage", "clear", "--yes", "--json", "--data-dir", clearTwin.dataDirectory.path])))
        #expect((try C.pythonJSON(Self.text(cleared)))["deletedConnections"] as? Int == 3)
        #expect(try Self.text(await Self.ask(clearing, "GET", "/api/flows")) == (Self.command(["flows", "--json"] + c)))
    }

    @Test("deleting audit evidence: 409 with the command's sentence and the switch that agrees as the parameter; agreed, what the command does")
    func evidenceDeletion() async throws {
        func directory() async throws -> TemporaryDirectory {
            let data = TemporaryDirectory("web-evidence")
            try RetentionFixture.captures(in: data.url, startedDaysAgo: [2, 1])
            try await RetentionFixture.evidence(in: data.url, files: [1], lastSeenDaysAgo: 1)
            return data
        }
        let data = try await directory(), twin = try await directory()
        let api = Self.api(data.url), d = ["--data-dir", data.url.path], t = ["--data-dir", twin.url.path]
        // A capture holding evidence.
        let refused = await Self.ask(api, "POST", "/api/captures/1/delete")
        try Self.expectSameError(refused, status: .conflict, ["captures", "rm", "1"] + d)
        let document = try C.pythonJSON(Self.text(refused))
        #expect(document["parameter"] as? String == "including-evidence")
        #expect((document["problem"] as? String)?.hasPrefix("capture 1 holds evidence of audit session ") == true)
        let removed = await Self.ask(api, "POST", "/api/captures/1/delete", [("including-evidence", "yes")])
        #expect(removed.status == .ok)
        #expect(try Self.text(removed) == Self.command(["captures", "rm", "1", "--including-evidence", "--json"] + t))
        // Everything, while the history holds evidence (its connection outlives its capture).
        let clearRefused = await Self.ask(api, "POST", "/api/storage/clear")
        try Self.expectSameError(clearRefused, status: .conflict, ["storage", "clear", "--yes"] + d)
        #expect((try C.pythonJSON(Self.text(clearRefused)))["problem"] as? String
                == "Delete everything would delete 1 connection of audit evidence (the audit projects and sessions stay, without that evidence)")
        let cleared = await Self.ask(api, "POST", "/api/storage/clear", [("including-evidence", "yes")])
        #expect(cleared.status == .ok)
        #expect(try Self.text(cleared) == Self.command(["storage", "clear", "--yes", "--including-evidence", "--json"] + t))
    }

    @Test("settings: the document 'settings --json' prints, and a change as 'settings set KEY VALUE --json' makes it")
    func settings() async throws {
        let (history, _, _, _) = try await FlowCommandTests.history()
        let (twin, _, _, _) = try await FlowCommandTests.history()
        let api = Self.api(history.dataDirectory), d = ["--data-dir", history.dataDirectory.path]
        let shown = await Self.ask(api, "GET", "/api/settings")
        #expect(try shown.status == .ok && Self.text(shown) == (Self.command(["settings", "--json"] + d)))
        for (key, value) in [("retention-age", "7d"), ("capture-detail", "metadata"), ("retention-size", "1GB")] {
            let changed = await Self.ask(api, "POST", "/api/settings", body: #"{"setting": "\#(key)", "value": "\#(value)"}"#)
            #expect(changed.status == .ok)
            #expect(try Self.text(changed) == (Self.command(["settings", "set", key, value, "--json", "--data-dir", twin.dataDirectory.path])))
        }
        #expect(try Self.text(await Self.ask(api, "GET", "/api/settings")) == (Self.command(["settings", "--json"] + d)))
        try Self.expectSameError(await Self.ask(api, "POST", "/api/settings", body: #"{"setting": "capture-detail", "value": "most"}"#),
                                 status: .badRequest, ["settings", "set", "capture-detail", "most"] + d)
        // A settings file that cannot be read: the command's sentence, as a failure (not the factory settings).
        try Data("{not json".utf8).write(to: history.dataDirectory.appendingPathComponent("settings.json"))
        let unreadable = await Self.ask(api, "GET", "/api/settings")
        #expect(unreadable.status == .internalServerError)
        let result = try C.run(["settings", "--json"] + d)
        #expect(result.status == 1)
        #expect((try C.pythonJSON(Self.text(unreadable)))["error"] as? String
                == result.err.replacingOccurrences(of: "tunnelvision: ", with: "").trimmingCharacters(in: .newlines))
    }

    @Test("diagnostics with no tunnel and the export: the command's documents (the export's time aside)")
    func diagnosticsAndExport() async throws {
        let (history, _, _, _) = try await FlowCommandTests.history()
        let data = history.dataDirectory, api = Self.api(data), d = ["--data-dir", data.path]
        let diagnostics = await Self.ask(api, "GET", "/api/diagnostics")
        #expect(try diagnostics.status == .ok && Self.text(diagnostics) == (Self.command(["diagnostics", "--json"] + d, status: 1)))
        #expect((try C.pythonJSON(Self.text(diagnostics)))["monitoring"] as? Bool == false)

        let document = await Self.ask(api, "POST", "/api/export")
        #expect(document.status == .ok && document.headers["Content-Disposition"] == "attachment; filename=\"connections.json\"")
        if case .file(let file) = document.body {
            #expect(!FileManager.default.fileExists(atPath: file.path), "the export's temporary file outlived its opening")
        } else {
            Issue.record("the export is not sent from disk")
        }
        #expect(document.headers["Content-Type"] == "application/json")
        // Byte for byte but the instant each was made at, and the path only the command wrote.
        let exported = try Self.command(["export", "-o", "-"] + d)
        #expect(Self.text(document).contains(#""exportedAt":"20"#))
        #expect(Self.without("exportedAt", Self.text(document)) == Self.without("exportedAt", exported))
        #expect(try (C.pythonJSON(Self.text(document))["connections"] as? [Any])?.count == 3)

        let summary = Self.text(await Self.ask(api, "GET", "/api/export/summary"))
        #expect(summary == (try Self.command(["export", "--summary", "--json"] + d)))
        let written = try Self.command(["export", "--json"] + d)
        #expect(summary.contains(#""path":null"#) && written.contains(#""path":"\#(data.appendingPathComponent("exports/connections.json").path)""#))
        #expect(summary.contains(#""bytes":\#(Self.bytes(document).count),"#))
        #expect(Self.without("path", summary) == Self.without("path", written))
    }

    /// `text` with every UTC instant to the second ("2026-12-01T19:30:00Z") blanked.
    static func withoutInstants(_ text: String) -> String {
        text.replacingOccurrences(of: #"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z"#, with: "T", options: .regularExpression)
    }

    /// `text` with the value of the string-or-null field `name` blanked.
    static func without(_ name: String, _ text: String) -> String {
        text.replacingOccurrences(of: #""\#(name)":("[^"]*"|null)"#, with: #""\#(name)":_"#, options: .regularExpression)
    }

    @Test("a missing history is a 404 with the command's sentence; a data directory the API cannot trust, a 500")
    func missingHistory() async throws {
        let empty = TemporaryDirectory("tv-api-empty")
        let api = Self.api(empty.url)
        try Self.expectSameError(await Self.ask(api, "GET", "/api/flows"), status: .notFound, ["flows", "--data-dir", empty.url.path])
        try Self.expectSameError(await Self.ask(api, "GET", "/api/activity"), status: .notFound, ["activity", "--data-dir", empty.url.path])
        try Self.expectSameError(await Self.ask(api, "POST", "/api/export"), status: .notFound, ["export", "-o", "-", "--data-dir", empty.url.path])
        chmod(empty.url.path, 0o777)
        defer { chmod(empty.url.path, 0o700) }
        try Self.expectSameError(await Self.ask(api, "GET", "/api/flows"), status: .internalServerError, ["flows", "--data-dir", empty.url.path])
    }
}
