import Foundation

/// Where a page of `recentFlows` ended: the next page starts after this flow. The exact stored
/// instant is kept (a `Date` would round it), and the id breaks ties, since many flows can share
/// a `lastSeen` — so paging neither skips nor repeats a flow.
public struct FlowCursor: Sendable, Hashable, Codable {
    let lastSeenNanoseconds: Int64
    public let id: Int64

    public var lastSeen: Date { EpochNanoseconds.date(lastSeenNanoseconds) }

    /// The position just past `flow` in newest-first order.
    public init(after flow: StoredFlow) {
        lastSeenNanoseconds = flow.lastSeenNanoseconds
        id = flow.id
    }
}
