import Foundation

/// Where a page of `flows(in:…)` ended: the next page starts after this flow. It holds the flow's
/// value in the page's order — the exact stored instant for the default order (a `Date` would
/// round it) — and its id, which breaks ties, since many flows can share a value: so paging
/// neither skips nor repeats a flow, whatever the order.
package struct FlowCursor: Sendable, Hashable {
    package let value: FlowSortValue
    package let id: Int64

    package init(value: FlowSortValue, id: Int64) {
        self.value = value
        self.id = id
    }

    /// A position in the default order written down earlier (a command's `--after`): the exact
    /// instant and id it held.
    package init(lastSeenNanoseconds: Int64, id: Int64) {
        self.init(value: .integer(lastSeenNanoseconds), id: id)
    }

    /// The position just past `flow` in newest-first order (`FlowOrder.newestFirst`).
    package init(after flow: StoredFlow) {
        self.init(lastSeenNanoseconds: flow.lastSeenNanoseconds, id: flow.id)
    }

}
