import Shared

/// The bounds every history read keeps, whatever the size of the history.
package struct HistoryPolicy: Sendable, Equatable {
    /// Rows per store query, and matches per load.
    package var pageSize: Int
    /// At most this many queries are chained to fill one page of a selective filter.
    package var maxPagesPerLoad: Int
    /// What the flow inspector lists of one flow's packets.
    package var packetsPerFlow: Int
    /// Bars of the timeline's activity axis, at most.
    package var axisBars: Int
    /// What the flow inspector lists of one flow's decrypted chunks (separate from the packets):
    /// by default every record the budget lets a flow write in both directions.
    var plaintextChunksPerFlow: Int

    package init(pageSize: Int = 100, maxPagesPerLoad: Int = 8, packetsPerFlow: Int = 500, axisBars: Int = 48,
                plaintextChunksPerFlow: Int = 2 * PlaintextBudget.Limits.standard.recordsPerDirection) {
        self.pageSize = pageSize
        self.maxPagesPerLoad = maxPagesPerLoad
        self.packetsPerFlow = packetsPerFlow
        self.axisBars = axisBars
        self.plaintextChunksPerFlow = plaintextChunksPerFlow
    }

    /// Rows a Timeline left open adds by itself to those the person loaded before its oldest go
    /// (the listing's `liveRowsKept`): a page open for hours stays the size it was, and so do its
    /// merges.
    package static let liveRowsKept = 1_000

    /// 100 / 8 / 500 / 48, and 16 384 decrypted chunks.
    package static let `default` = HistoryPolicy()
}
