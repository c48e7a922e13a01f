import Shared

/// The decisions of one load: consume store pages in the list's order until a page of matches is
/// full, the query budget is spent or nothing further remains. Pure: the reader feeds it the rows.
struct HistoryPageFill {
    let filter: HistoryFilter
    let order: FlowOrder
    let policy: HistoryPolicy
    let localAddresses: Set<IPAddress>
    private(set) var cursor: FlowCursor?
    private(set) var matches: [HistoryFlow] = []
    private(set) var scanned = 0
    private(set) var queries = 0
    /// nil while undecided; then whether rows older than `cursor` remain.
    private(set) var hasMore: Bool?

    init(filter: HistoryFilter, order: FlowOrder = .newestFirst, policy: HistoryPolicy, localAddresses: Set<IPAddress>,
         after cursor: FlowCursor?) {
        self.filter = filter
        self.order = order
        self.policy = policy
        self.localAddresses = localAddresses
        self.cursor = cursor
    }

    /// Rows per query: one past the page, so a full page knows whether anything older exists.
    var queryLimit: Int { max(1, policy.pageSize) + 1 }

    /// Whether the load is over (no further query wanted); the next one starts after `cursor`.
    var isSettled: Bool { hasMore != nil }

    /// Takes the rows a query after `cursor` returned (at most `queryLimit`).
    mutating func consume(_ rows: [ListedFlow]) {
        queries += 1
        let pageSize = max(1, policy.pageSize)
        var consumed = 0
        for listed in rows.prefix(pageSize) {
            let row = listed.flow
            if order == .newestFirst, filter.excludesEverything(lastSeenBefore: row.lastSeen) {
                hasMore = false
                return
            }
            consumed += 1
            scanned += 1
            cursor = listed.cursor
            var flow = HistoryFlow(row, localAddresses: localAddresses)
            flow.position = listed.cursor
            if filter.matches(flow) { matches.append(flow) }
            if matches.count >= pageSize { break }
        }
        if consumed == rows.count {
            hasMore = false
        } else if matches.count >= pageSize || queries >= max(1, policy.maxPagesPerLoad) {
            hasMore = true
        }
    }
}
