import Shared

/// Which rows an export asks the history for next — the decisions of paging, without the I/O.
/// Pages of `pageSize` until the cap; never more rows than the cap leaves; then, with the cap
/// reached, one row past the last cursor, because whether more exist is asked of the history and
/// never derived from the count (a history ending exactly at the cap is not truncated).
struct FlowExportPaging: Sendable {
    enum Step: Sendable, Equatable {
        /// Ask for up to `limit` rows after `cursor`.
        case page(limit: Int, after: FlowCursor?)
        /// Ask for one row after `cursor`: is there anything past the cap?
        case probe(after: FlowCursor?)
        case finished(truncated: Bool)
    }

    let limit: Int
    let pageSize: Int
    private(set) var exported = 0
    private(set) var cursor: FlowCursor?
    private(set) var next: Step

    init(limit: Int, pageSize: Int) {
        self.limit = max(0, limit)
        self.pageSize = max(1, pageSize)
        next = self.limit == 0 ? .probe(after: nil) : .page(limit: min(self.pageSize, self.limit), after: nil)
    }

    /// The rows of the step just taken, to keep: a provider that returned more than it was asked
    /// for is cut to what was asked, so the cap holds whoever provides the rows.
    mutating func received(_ flows: [HistoryFlow]) -> ArraySlice<HistoryFlow> {
        switch next {
        case .finished:
            return []
        case .probe:
            next = .finished(truncated: !flows.isEmpty)
            return []
        case let .page(asked, _):
            let kept = flows.prefix(asked)
            exported += kept.count
            // Where the provider's order goes on past the last row (newest first when it did not say).
            if let last = kept.last { cursor = last.position ?? FlowCursor(after: last.stored) }
            if kept.count < asked {
                next = .finished(truncated: false)
            } else if exported >= limit {
                next = .probe(after: cursor)
            } else {
                next = .page(limit: min(pageSize, limit - exported), after: cursor)
            }
            return kept
        }
    }
}
