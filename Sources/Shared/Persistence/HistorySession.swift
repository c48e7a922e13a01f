import Foundation

/// One session of the history: what one store wrote, from its opening to its end — one `run`, one
/// `demo`, one analysed capture. Its flows are `FlowStore.flows(inSession:…)`.
package struct HistorySession: Sendable, Hashable, Identifiable {
    package let id: Int64
    package let started: Date
    /// nil while it writes, and for good when its process died before ending it.
    package let ended: Date?
    /// What started it: "run curl …", "demo", `FlowStore.Schema.legacyOrigin`.
    package let origin: String
}
