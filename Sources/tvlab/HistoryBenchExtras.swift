import App
import Shared

/// One timing of `tvlab bench history`: a name, its target and the work, run once per repetition.
struct HistoryBenchMeasurement: Sendable {
    let name: String
    let targetMilliseconds: Double
    let work: @Sendable () async throws -> Void
}

/// **The integrator's hook.** Timings of other helpers' services over the same filled history —
/// packet detail (`CaptureLibrary.record(at:)`, target 5 ms) and an export of 20 000 connections
/// (`FlowExporter`, target 1 s) — go here: each gets the bench's store, reader and the id of the
/// flow with 10 000 packets, and returns its measurements; the bench times and reports them with
/// its own.
enum HistoryBenchExtras {
    static func measurements(store: FlowStore, reader: HistoryReader, inspectedFlowID: Int64,
                             dataDirectory: String) -> [HistoryBenchMeasurement] {
        []
    }
}
