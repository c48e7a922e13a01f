import Foundation

/// One session of the history: what one store wrote, from its opening to its end — one `run`, one
/// `demo`, one analysed capture. Its flows are `FlowStore.flows(inSession:…)`.
public struct HistorySession: Sendable, Hashable, Identifiable {
    public let id: Int64
    public let started: Date
    /// nil while it writes, and for good when its process died before ending it.
    public let ended: Date?
    /// What started it: "run curl …", "demo", `FlowStore.Schema.legacyOrigin`.
    public let origin: String
}
