import Foundation
import Shared

/// One remote host and what it moved in the window: a top-talker row.
package struct LiveTalker: Sendable, Hashable {
    package let remote: IPAddress
    package let bytesIn: UInt64
    package let bytesOut: UInt64
    /// The connection that last moved bytes with it: what the history is asked for its name.
    package let latestFlow: FlowKey

    package init(remote: IPAddress, bytesIn: UInt64, bytesOut: UInt64, latestFlow: FlowKey) {
        self.remote = remote
        self.bytesIn = bytesIn
        self.bytesOut = bytesOut
        self.latestFlow = latestFlow
    }

    package var bytes: UInt64 { bytesIn &+ bytesOut }
}
