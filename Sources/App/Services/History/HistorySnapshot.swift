import Shared

/// Where the list's loading stands.
package enum HistoryState: Sendable, Equatable {
    case idle
    /// Building from the first page (a refresh, a new filter).
    case loading
    /// Fetching the next page back in time; the list shown stays.
    case loadingOlder
    case loaded
    /// The store could not be read: its words. The list keeps what it held; never shown as empty.
    case failed(String)
}

/// What the timeline shows at one moment.
package struct HistorySnapshot: Sendable, Equatable {
    package var flows: [HistoryFlow]
    package var filter: HistoryFilter
    /// The order the list is in: `nextCursor` is a position in it.
    package var order: FlowOrder
    package var state: HistoryState
    /// Whether older connections remain to be read (not whether they match).
    package var hasMore: Bool
    /// Rows read by the last load, matched or not.
    package var scannedInLastLoad: Int
    /// Store queries the last load made (at most `HistoryPolicy.maxPagesPerLoad`).
    package var queriesInLastLoad: Int
    /// How many flows the last load added to the list.
    package var flowsInLastLoad: Int
    /// Where the next page starts; nil before the first load and once nothing older remains.
    package var nextCursor: FlowCursor?

    package init(flows: [HistoryFlow] = [], filter: HistoryFilter = .none, order: FlowOrder = .newestFirst, state: HistoryState = .idle,
                hasMore: Bool = false, scannedInLastLoad: Int = 0, queriesInLastLoad: Int = 0,
                flowsInLastLoad: Int = 0, nextCursor: FlowCursor? = nil) {
        self.flows = flows
        self.filter = filter
        self.order = order
        self.state = state
        self.hasMore = hasMore
        self.scannedInLastLoad = scannedInLastLoad
        self.queriesInLastLoad = queriesInLastLoad
        self.flowsInLastLoad = flowsInLastLoad
        self.nextCursor = nextCursor
    }

    /// Nothing to show **and** loaded: with `filter.isActive` it is "no matches" (offer to clear
    /// the filter), without it "no traffic yet" (teach how to record).
    package var isEmpty: Bool { flows.isEmpty && state == .loaded }

    /// The honest "kept looking" case: the last load spent its query budget and found fewer
    /// connections than a page while older ones remain — more may match further back.
    package func keptLooking(pageSize: Int) -> Bool {
        state == .loaded && hasMore && filter.isActive && flowsInLastLoad < pageSize
    }
}
