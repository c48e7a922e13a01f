import Foundation
import TestSupport
import Testing
import Shared

/// `tunnelvision analyze` run as a person would, over a capture written by `PcapWriter`.
@Suite(.serialized) struct AnalyzeCommandTests {
    @Test func aHistoryThatCannotBeWrittenIsReportedAfterTheReadingAndLeftUntouched() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tv-analyze-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try await PacketsCommandTests.capture(in: directory.appendingPathComponent("captures"), count: 40)
        let history = directory.appendingPathComponent("history")
        try FileManager.default.createDirectory(at: history, withIntermediateDirectories: true)
        let database = DataDirectoryLayout.database(in: history)
        let notADatabase = Data("these are someone's notes, not SQLite\n".utf8)
        try notADatabase.write(to: database)

        let result = try PacketsCommandTests.run(["analyze", file.path, "--json", "--data-dir", history.path])
        #expect(result.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(report["packets"] as? Int == 41)
        #expect(report["unreadablePackets"] as? Int == 1)                     // the malformed record
        #expect((report["conversations"] as? [Any])?.isEmpty == false)
        #expect(result.err.contains("were not added to the history"))
        #expect(try Data(contentsOf: database) == notADatabase)

        let written = try PacketsCommandTests.run(["analyze", file.path, "--data-dir", directory.appendingPathComponent("fresh").path])
        #expect(written.status == 0 && written.out.contains("conversations"))
    }

    /// Every worker count must tell the same story, names learned across shares included.
    @Test func anyNumberOfWorkersGivesTheSameReport() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tv-workers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try await NamedTrafficCapture.write(in: directory, seed: 9, packets: 3_000)

        let single = try PacketsCommandTests.run(["analyze", file.path, "--json", "--workers", "1"])
        #expect(single.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(single.out.utf8)) as? [String: Any])
        let found = try #require(report["conversations"] as? [[String: Any]])
        #expect(found.filter { $0["nameSource"] as? String == "sni" }.count > 20)
        #expect(found.filter { $0["nameSource"] as? String == "dns" }.count > 20)
        #expect(report["unreadablePackets"] as? Int == 1)
        for workers in ["2", "3", "5"] {
            let parallel = try PacketsCommandTests.run(["analyze", file.path, "--json", "--workers", workers])
            #expect(parallel.status == 0)
            // Compared as a flag, so a failure names the first difference instead of printing both.
            let differs = zip(parallel.out.split(separator: "}"), single.out.split(separator: "}")).first { $0 != $1 }
            let same = parallel.out == single.out
            #expect(same, "\(workers) workers: \(differs.map { "\($0.0)} instead of \($0.1)}" } ?? "lengths differ")")
        }
        #expect(try PacketsCommandTests.run(["analyze", file.path, "--workers", "0"]).status == 2)
    }
}
