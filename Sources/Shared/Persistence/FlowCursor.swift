import Foundation

/// Where a page of `recentFlows` ended: the next page starts after this flow. The exact stored
/// instant is kept (a `Date` would round it), and the id breaks ties, since many flows can share
/// a `lastSeen` — so paging neither skips nor repeats a flow.
public struct FlowCursor: Sendable, Hashable, Codable {
    public let lastSeenNanoseconds: Int64
    public let id: Int64

    public var lastSeen: Date { EpochNanoseconds.date(lastSeenNanoseconds) }

    /// A position written down earlier (a command's `--after`): the exact instant and id it held.
    public init(lastSeenNanoseconds: Int64, id: Int64) {
        self.lastSeenNanoseconds = lastSeenNanoseconds
        self.id = id
    }

    /// The position just past `flow` in newest-first order.
    public init(after flow: StoredFlow) {
        lastSeenNanoseconds = flow.lastSeenNanoseconds
        id = flow.id
    }
}
