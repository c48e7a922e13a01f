import Foundation

/// What an export wrote: where, how many connections, how many bytes, and whether the cap cut it.
package struct FlowExportResult: Sendable, Equatable {
    /// The file; nil when the document went to a stream (standard output) instead.
    package let url: URL?
    package let connectionCount: Int
    package let byteCount: UInt64
    /// The history held more than the cap: the file holds only the most recent connections.
    package let truncated: Bool

    /// HAR: the requests written (from `connectionCount` inspected connections); nil for the others.
    let requestCount: Int?
    /// HAR: inspected connections whose kept content could not be read, so are not in the file.
    package let unreadableContent: Int

    package init(url: URL?, connectionCount: Int, byteCount: UInt64, truncated: Bool, requestCount: Int? = nil,
                unreadableContent: Int = 0) {
        self.url = url
        self.connectionCount = connectionCount
        self.byteCount = byteCount
        self.truncated = truncated
        self.requestCount = requestCount
        self.unreadableContent = unreadableContent
    }
}
