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
}
