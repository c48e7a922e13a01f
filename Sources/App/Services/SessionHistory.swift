import Shared

/// One tunnel session's own connections, asked of the history by the session's id — never
/// guessed from times, never cut at a page: every flow the session wrote, however many, in the
/// order a summary lists them (least recently seen first, ties by id).
package struct SessionHistory: Sendable {
    private let store: FlowStore

    package init(store: FlowStore) {
        self.store = store
    }

    /// The session's flows; a store that cannot be read throws, and the caller says so rather
    /// than show an empty list.
    package func flows(ofSession id: Int64) async throws(StoreError) -> [StoredFlow] {
        try await store.allFlows(inSession: id).sorted { ($0.lastSeen, $0.id) < ($1.lastSeen, $1.id) }
    }

    /// What the summary of a run shows of its connections: the flows, or why they are not known.
    /// A session that never wrote (no packet crossed the tunnel) has none.
    package func connections(ofSession id: Int64?) async -> RunSummary.Connections {
        guard let id else { return .known([]) }
        do {
            return .known(try await flows(ofSession: id).map { RunSummary.Connection($0) })
        } catch {
            return .unreadable(error.description)
        }
    }
}
