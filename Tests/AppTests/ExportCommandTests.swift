#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared
import TestSupport
import Testing
import App

/// `tunnelvision export` as a person types it, over a history the real store wrote; the file is
/// read back by Python's json, as a script would read it.
@Suite("tunnelvision export")
struct ExportCommandTests {
    typealias C = HistoryCommandSupport
    static func tunnelvision(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), arguments)
    }

    static func shell(_ script: String) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script])
    }

    /// Python's reading of an export: {id: [bytesOut, bytesIn, packets]} and the trailer.
    static let pythonSummary = """
    import json, sys
    d = json.load(open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin)
    print(json.dumps({"flows": {str(c["id"]): [c["bytesOut"], c["bytesIn"], c["packets"]] for c in d["connections"]},
                      "count": d["connectionCount"], "truncated": d["truncated"], "contents": d["contents"]}))
    """

    /// A history of `count` flows with distinct byte counts, written in one batch by the real store.
    static func history(count: Int) async throws -> (directory: TemporaryDirectory, data: URL, expected: [String: [Int]]) {
        let directory = TemporaryDirectory("export-command")
        let data = directory.url.appendingPathComponent("data")
        let store = try FlowStore(dataDirectory: data, origin: "test")
        var records: [FlowRecord] = []
        for index in 0..<count {
            let step = UInt64(index)
            records.append(ExportHistoryFixture.record(port: UInt16(30_000 + index), lastSeen: 2_000_000 + step * 1_000,
                                                       bytesOut: 100 + step, bytesIn: 7_000 + 3 * step, packets: 4 + step % 5))
        }
        _ = try await store.write(FlowStoreBatch(flows: records))
        let flows = try await store.recentFlows(limit: count + 1)
        await store.close()
        var expected: [String: [Int]] = [:]
        for flow in flows { expected[String(flow.id)] = [Int(flow.bytesOut), Int(flow.bytesIn), Int(flow.packetCount)] }
        return (directory, data, expected)
    }

    static func python(_ arguments: [String], stdin: String? = nil) throws -> [String: Any] {
        let result = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", pythonSummary] + arguments)
        #expect(result.status == 0, "\(result.err)")
        return try exportDocument(Data(result.out.utf8))
    }

    @Test("the export lands in the data directory, owner-only, and Python reads every flow with its bytes")
    func exportsEveryFlow() async throws {
        let (directory, data, expected) = try await Self.history(count: 25)
        let result = try Self.tunnelvision(["export", "--data-dir", data.path])
        #expect(result.status == 0, "\(result.err)")
        let file = data.appendingPathComponent("exports/connections.json")
        #expect(result.out.hasPrefix("exported 25 connections to \(file.path) ("))
        let read = try Self.python([file.path])
        #expect(read["flows"] as? [String: [Int]] == expected)
        #expect(read["count"] as? Int == 25 && read["truncated"] as? Bool == false)
        #expect((read["contents"] as? String)?.hasPrefix("metadata only") == true)
        var status = stat()
        #expect(stat(file.path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(stat(file.deletingLastPathComponent().path, &status) == 0 && status.st_mode & 0o777 == 0o700)
        _ = directory
    }

    @Test("--json says where it went, how many, how big; -o - writes the document to standard output")
    func jsonAndStandardOutput() async throws {
        let (directory, data, expected) = try await Self.history(count: 6)
        let result = try Self.tunnelvision(["export", "--data-dir", data.path, "--json"])
        #expect(result.status == 0, "\(result.err)")
        let summary = try exportDocument(Data(result.out.utf8))
        let path = try #require(summary["path"] as? String)
        #expect(summary["connections"] as? Int == 6 && summary["truncated"] as? Bool == false)
        #expect(summary["bytes"] as? Int == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))
        let piped = try Self.shell("'\(try BuiltProduct.url("tunnelvision").path)' export --data-dir '\(data.path)' -o - "
                                   + "| python3 -c '\(Self.pythonSummary)'")
        #expect(piped.status == 0, "\(piped.err)")
        #expect(try exportDocument(Data(piped.out.utf8))["flows"] as? [String: [Int]] == expected)
        _ = directory
    }

    @Test("a file that is not an earlier export is left alone without --force, and replaced with it")
    func strangerNeedsForce() async throws {
        let (directory, data, _) = try await Self.history(count: 3)
        let target = directory.url.appendingPathComponent("report.json")
        try Data("keep me".utf8).write(to: target)
        let refused = try Self.tunnelvision(["export", "--data-dir", data.path, "-o", target.path])
        #expect(refused.status == 1)
        #expect(refused.err.contains("not an earlier export") && refused.err.contains("--force"))
        #expect(try Data(contentsOf: target) == Data("keep me".utf8))
        let forced = try Self.tunnelvision(["export", "--data-dir", data.path, "-o", target.path, "--force"])
        #expect(forced.status == 0, "\(forced.err)")
        #expect(try Self.python([target.path])["count"] as? Int == 3)
        // Now an earlier export: replaced without --force.
        #expect(try Self.tunnelvision(["export", "--data-dir", data.path, "-o", target.path]).status == 0)
    }

    @Test("past the cap the export says truncated, and of how many")
    func truncatedSaysSo() async throws {
        let (directory, data, _) = try await Self.history(count: FlowExport.defaultLimit + 2)
        let result = try Self.tunnelvision(["export", "--data-dir", data.path])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("exported 20 000 connections"))
        #expect(result.out.contains("truncated: the 20 000 most recent of 20 002"))
        let read = try Self.python([data.appendingPathComponent("exports/connections.json").path])
        #expect(read["count"] as? Int == 20_000 && read["truncated"] as? Bool == true)
        _ = directory
    }

    @Test("no history, a bad option: each says what to do, with its exit status")
    func refusals() throws {
        let empty = TemporaryDirectory("export-empty")
        let missing = try Self.tunnelvision(["export", "--data-dir", empty.url.path])
        #expect(missing.status == 1)
        #expect(missing.err.contains("no history") && missing.err.contains("tunnelvision run"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.url.path).isEmpty)
        #expect(try Self.tunnelvision(["export", "--bogus"]).status == 2)
        #expect(try Self.tunnelvision(["export", "-o"]).status == 2)
        #expect(try Self.tunnelvision(["export", "-o", "-", "--json"]).status == 2)
    }

    @Test("--csv writes a line per connection that Python's csv reads back, and takes flows' filters: --search narrows it")
    func csvWithFilters() async throws {
        let (directory, data, expected) = try await Self.history(count: 12)
        let all = try Self.tunnelvision(["export", "--csv", "-o", "-", "--data-dir", data.path])
        #expect(all.status == 0, "\(all.err)")
        let reader = "import csv, json, sys; rows = list(csv.DictReader(sys.stdin)); "
            + "print(json.dumps({r['id']: [int(r['bytesOut']), int(r['bytesIn']), int(r['packets'])] for r in rows}))"
        let read = try BuiltProduct.run(URL(fileURLWithPath: "/bin/bash"), ["-c", "printf '%s' \"$0\" | python3 -c \"$1\"", all.out, reader])
        #expect(read.status == 0, "\(read.err)")
        let rows = try JSONSerialization.jsonObject(with: Data(read.out.utf8)) as? [String: [Int]]
        #expect(rows == expected)
        #expect(all.out.hasPrefix(FlowExportCSV.header) && all.out.hasSuffix("\r\n"))

        // One port of the twelve, asked as the Timeline's search asks it: the file holds that one.
        let narrowed = try Self.tunnelvision(["export", "--csv", "--search", "port:30003", "--data-dir", data.path])
        #expect(narrowed.status == 0, "\(narrowed.err)")
        let file = data.appendingPathComponent("exports/connections.csv")
        #expect(narrowed.out.hasPrefix("exported 1 connection to \(file.path) ("), "\(narrowed.out)")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\r\n")
        #expect(lines.count == 2 && lines[1].contains(",30003,"), "\(lines)")
        // The JSON export says what its filter kept.
        let json = try Self.tunnelvision(["export", "--search", "port:30003", "-o", "-", "--data-dir", data.path])
        #expect(json.out.contains(#""scope":"the connections --search port:30003 keeps, most recent first""#), "\(json.out.prefix(400))")
        // Sorted as flows sorts: the same ids in the same order, and the file says the order.
        let sorted = try Self.tunnelvision(["export", "--csv", "--sort", "sent:asc", "-o", "-", "--data-dir", data.path])
        let listed = try Self.tunnelvision(["flows", "--sort", "sent:asc", "--json", "--data-dir", data.path])
        let listedIDs = try #require(try C.pythonJSON(listed.out)["flows"] as? [[String: Any]]).map { "\($0["id"] as! Int)" }
        #expect(sorted.out.split(separator: "\r\n").dropFirst().map { String($0.prefix { $0 != "," }) } == listedIDs)
        // Each line's Community ID is the one flows --json gives the same connection.
        let communityReader = "import csv, json, sys; print(json.dumps({r['id']: r['communityID'] for r in csv.DictReader(sys.stdin)}))"
        let readIDs = try BuiltProduct.run(URL(fileURLWithPath: "/bin/bash"),
                                           ["-c", "printf '%s' \"$0\" | python3 -c \"$1\"", all.out, communityReader])
        let csvCommunityIDs = try JSONSerialization.jsonObject(with: Data(readIDs.out.utf8)) as? [String: String]
        let listedCommunityIDs = try #require(try C.pythonJSON(listed.out)["flows"] as? [[String: Any]])
            .reduce(into: [String: String]()) { $0["\($1["id"] as! Int)"] = $1["communityID"] as? String ?? "" }
        #expect(csvCommunityIDs == listedCommunityIDs && listedCommunityIDs.values.allSatisfy { $0.hasPrefix("1:") })
        let sortedJSON = try Self.tunnelvision(["export", "--sort", "sent:asc", "-o", "-", "--data-dir", data.path])
        #expect(sortedJSON.out.contains(#""scope":"the whole history, sorted by bytes sent, fewest first""#), "\(sortedJSON.out.prefix(400))")
        _ = directory
    }

    @Test("--csv and --har go one at a time, --summary takes no format or filter, a bad filter is refused as flows refuses it")
    func formatRefusals() throws {
        let csvAndHar = try Self.tunnelvision(["export", "--csv", "--har"])
        #expect(csvAndHar.status == 2 && csvAndHar.err.contains("--csv and --har: give one"))
        #expect(try Self.tunnelvision(["export", "--summary", "--csv"]).status == 2)
        #expect(try Self.tunnelvision(["export", "--summary", "--sort", "host"]).status == 2)
        let badSort = try Self.tunnelvision(["export", "--sort", "colour"])
        #expect(badSort.status == 2 && badSort.err.contains("export: unknown sort 'colour'"), "\(badSort.err)")
        let badStatus = try Self.tunnelvision(["export", "--status", "sealed"])
        #expect(badStatus.status == 2 && badStatus.err.contains("export: unknown status 'sealed'"), "\(badStatus.err)")
        let badSearch = try Self.tunnelvision(["export", "--search", "port:abc"])
        #expect(badSearch.status == 2 && badSearch.err.contains("export: --search:"), "\(badSearch.err)")
    }
}
