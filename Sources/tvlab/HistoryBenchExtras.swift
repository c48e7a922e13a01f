import Foundation
import App
import Shared

/// One timing of `tvlab bench history`: a name, its target and the work, run once per repetition.
struct HistoryBenchMeasurement: Sendable {
    let name: String
    let targetMilliseconds: Double
    let work: @Sendable () async throws -> Void
}

/// Timings of the inspector's packet detail and the export over the same filled history: each
/// gets the bench's store, reader and the id of the flow with 10 000 packets (whose packets are
/// captured), and returns its measurements; the bench times and reports them with its own.
enum HistoryBenchExtras {
    static func measurements(store: FlowStore, reader: HistoryReader, inspectedFlowID: Int64,
                             dataDirectory: String) -> [HistoryBenchMeasurement] {
        let inspection = FlowInspection(store: store, library: CaptureLibrary(dataDirectory: URL(fileURLWithPath: dataDirectory)))
        let exports = URL(fileURLWithPath: dataDirectory).appendingPathComponent("exports")
        return [
            HistoryBenchMeasurement(name: "inspector: facts and the first 500 packets ('flow ID')", targetMilliseconds: 20) {
                _ = try await inspection.inspector(flowID: inspectedFlowID)
            },
            HistoryBenchMeasurement(name: "packet detail: packet 9 000 of the 10 000, its record read", targetMilliseconds: 5) {
                let detail = try await inspection.packet(flowID: inspectedFlowID, number: 9_000)
                guard detail.record != nil else { throw Failure("packet detail drew no bytes: \(detail)") }
            },
            HistoryBenchMeasurement(name: "export: 20 000 connections as JSON", targetMilliseconds: 1_000) {
                let result = try await FlowExporter(directory: exports).export(now: Date(), pages: { limit, cursor in
                    try await reader.flowPage(limit: limit, after: cursor)
                })
                guard result.connectionCount == FlowExport.defaultLimit else {
                    throw Failure("the export held \(result.connectionCount) connections")
                }
            },
        ]
    }
}
