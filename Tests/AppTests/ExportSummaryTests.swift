import Foundation
import Fixtures
import Shared
import TestSupport
import Testing
import App

/// What the export would hold, said before it is written (`export --summary`, the web app's
/// summary), against the document the export then really writes.
@Suite("The export's summary before writing")
struct ExportSummaryTests {
    /// A name of 4 to 60 letters, drawn from `random`: entries of very different sizes.
    static func name(_ random: inout SeededRandom) -> String {
        String((0..<Int.random(in: 4...60, using: &random)).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement(using: &random)! })
            + ".example"
    }

    /// `count` flows with names of varied lengths and byte counts of varied digits, in one batch.
    static func history(count: Int, seed: UInt64) async throws -> (directory: TemporaryDirectory, data: URL) {
        let directory = TemporaryDirectory("export-summary")
        let data = directory.url.appendingPathComponent("data")
        let store = try FlowStore(dataDirectory: data, origin: "test")
        var random = SeededRandom(seed: seed)
        var records: [FlowRecord] = []
        for index in 0..<count {
            let sni: String? = index % 3 == 0 ? nil : name(&random)
            let bytesOut = UInt64.random(in: 0...10_000_000, using: &random)
            let bytesIn = UInt64.random(in: 0...1_000, using: &random)
            records.append(ExportHistoryFixture.record(port: UInt16(10_000 + index % 50_000), lastSeen: 2_000_000 + UInt64(index) * 1_000,
                                                       sni: sni, bytesOut: bytesOut, bytesIn: bytesIn, packets: UInt64(index % 977)))
        }
        _ = try await store.write(FlowStoreBatch(flows: records))
        await store.close()
        return (directory, data)
    }

    static func tunnelvision(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), arguments)
    }

    /// The summary's JSON, then the export the command really writes: its count and file size.
    static func summaryThenExport(_ data: URL) throws -> (summary: [String: Any], text: String, count: Int, bytes: Int) {
        let json = try tunnelvision(["export", "--summary", "--json", "--data-dir", data.path])
        #expect(json.status == 0, "\(json.err)")
        let text = try tunnelvision(["export", "--summary", "--data-dir", data.path])
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("exports").path), "--summary wrote something")
        let exported = try tunnelvision(["export", "--json", "--data-dir", data.path])
        #expect(exported.status == 0, "\(exported.err)")
        let file = data.appendingPathComponent("exports/connections.json")
        let document = try exportDocument(try Data(contentsOf: file))
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? -1
        return (try exportDocument(Data(json.out.utf8)), text.out, document["connectionCount"] as? Int ?? -1, size)
    }

    @Test("up to the sample's size the summary says the written document's count and size to the byte")
    func exactForASmallHistory() async throws {
        let (directory, data) = try await Self.history(count: 700, seed: 7)
        let said = try Self.summaryThenExport(data)
        #expect(said.count == 700)
        #expect(said.summary["connections"] as? Int == said.count)
        #expect(said.summary["bytes"] as? Int == said.bytes, "the summary's size is not the file's")
        #expect(said.summary["bytesEstimated"] as? Bool == false && said.summary["truncated"] as? Bool == false)
        #expect(said.text.hasPrefix("would export 700 connections (") && !said.text.contains("about"))
        _ = directory
    }

    @Test("past the cap: the count and the truncation exact, the size an estimate within 3 % and said 'about'")
    func estimatedPastTheCap() async throws {
        let total = FlowExport.defaultLimit + 1_500
        let (directory, data) = try await Self.history(count: total, seed: 11)
        let said = try Self.summaryThenExport(data)
        #expect(said.count == FlowExport.defaultLimit)
        #expect(said.summary["connections"] as? Int == said.count)
        #expect(said.summary["truncated"] as? Bool == true && said.summary["historyConnections"] as? Int == total)
        #expect(said.summary["bytesEstimated"] as? Bool == true)
        let estimate = Double(said.summary["bytes"] as? Int ?? 0)
        #expect(abs(estimate - Double(said.bytes)) / Double(said.bytes) < 0.03, "estimated \(estimate), wrote \(said.bytes)")
        #expect(said.text.hasPrefix("would export 20 000 connections (about "), "\(said.text)")
        #expect(said.text.contains("truncated: the 20 000 most recent of 21 500"))
        _ = directory
    }

    @Test("the estimate core: exact when the sample is every connection, flagged when it is not")
    func estimateCore() async throws {
        let fixture = try ExportHistoryFixture()
        var random = SeededRandom(seed: 3)
        let flows = try await fixture.write((0..<60).map { index in
            ExportHistoryFixture.record(port: UInt16(20_000 + index), lastSeen: 3_000_000 + UInt64(index) * 1_000, sni: Self.name(&random))
        })
        await fixture.close()
        let now = Date(timeIntervalSince1970: 1_796_000_000.25)
        let whole = FlowExport.document(flows, exportedAt: now)
        let exact = FlowExportEstimate.bytes(sample: flows, connections: flows.count, truncated: false, exportedAt: now)
        #expect(exact.bytes == UInt64(whole.count) && !exact.estimated)
        let partial = FlowExportEstimate.bytes(sample: Array(flows.prefix(20)), connections: flows.count, truncated: false, exportedAt: now)
        #expect(partial.estimated)
        #expect(abs(Double(partial.bytes) - Double(whole.count)) / Double(whole.count) < 0.15, "\(partial.bytes) for \(whole.count)")
        let none = FlowExportEstimate.bytes(sample: [], connections: 0, truncated: false, exportedAt: now)
        #expect(none.bytes == UInt64(FlowExport.document([], exportedAt: now).count) && !none.estimated)
    }
}
