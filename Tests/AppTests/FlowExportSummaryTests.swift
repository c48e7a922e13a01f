import Foundation
import Testing
import App

/// What is said of an export once written.
@Suite("What an export says of itself")
struct FlowExportSummaryTests {
    @Test("where it went, how many and how big; truncated says of how many, or that they could not be counted")
    func lines() throws {
        let url = URL(fileURLWithPath: "/data/exports/connections.json")
        let whole = FlowExportSummary(FlowExportResult(url: url, connectionCount: 1, byteCount: 1_536, truncated: false),
                                      historyConnections: nil)
        #expect(whole.lines == ["exported 1 connection to /data/exports/connections.json (1.5 KiB)"])
        let cut = FlowExportSummary(FlowExportResult(url: url, connectionCount: 20_000, byteCount: 9_000_000, truncated: true),
                                    historyConnections: 1_234_567)
        #expect(cut.lines.last == "truncated: the 20 000 most recent of 1 234 567")
        let uncounted = FlowExportSummary(FlowExportResult(url: url, connectionCount: 20_000, byteCount: 9, truncated: true),
                                          historyConnections: nil)
        #expect(uncounted.truncation?.contains("could not be counted") == true)
        let json = try exportDocument(Data(cut.json.utf8))
        #expect(json["path"] as? String == url.path && json["connections"] as? Int == 20_000)
        #expect(json["bytes"] as? Int == 9_000_000 && json["truncated"] as? Bool == true)
        #expect(json["historyConnections"] as? Int == 1_234_567)
    }
}
