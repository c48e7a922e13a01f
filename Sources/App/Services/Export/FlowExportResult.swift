import Foundation

/// What an export wrote: where, how many connections, how many bytes, and whether the cap cut it.
public struct FlowExportResult: Sendable, Equatable {
    /// The file; nil when the document went to a stream (standard output) instead.
    public let url: URL?
    public let connectionCount: Int
    public let byteCount: UInt64
    /// The history held more than the cap: the file holds only the most recent connections.
    public let truncated: Bool

    public init(url: URL?, connectionCount: Int, byteCount: UInt64, truncated: Bool) {
        self.url = url
        self.connectionCount = connectionCount
        self.byteCount = byteCount
        self.truncated = truncated
    }
}
