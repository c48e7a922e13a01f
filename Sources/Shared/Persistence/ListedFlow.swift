/// A flow as a list in some order reads it (`FlowStore.flows(in:…)`): the flow, and the cursor
/// just past it in that order — where the next page starts when it is the page's last.
package struct ListedFlow: Sendable {
    package let flow: StoredFlow
    package let cursor: FlowCursor
}
