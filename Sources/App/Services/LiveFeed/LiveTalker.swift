import Foundation
import Shared

/// One remote host and what it moved in the window: a top-talker row.
public struct LiveTalker: Sendable, Hashable {
    public let remote: IPAddress
    public let bytesIn: UInt64
    public let bytesOut: UInt64
    /// The connection that last moved bytes with it: what the history is asked for its name.
    public let latestFlow: FlowKey

    public init(remote: IPAddress, bytesIn: UInt64, bytesOut: UInt64, latestFlow: FlowKey) {
        self.remote = remote
        self.bytesIn = bytesIn
        self.bytesOut = bytesOut
        self.latestFlow = latestFlow
    }

    public var bytes: UInt64 { bytesIn &+ bytesOut }
}
