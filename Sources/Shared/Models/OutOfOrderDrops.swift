/// Out-of-order TCP data an offline reading did not hold for its scanners: segments ahead of a gap
/// that lay beyond what the scanners read (`TCPFlowScanners.clientStreamReach`), or that came
/// while the bytes held for gaps were at their bound. What they would have taught is lost: a
/// handshake they carried is not read.
package struct OutOfOrderDrops: Sendable, Equatable {
    /// Segments of which some bytes were not held.
    package var segments: Int
    /// Their bytes that were not held.
    package var bytes: Int

    package static let none = OutOfOrderDrops(segments: 0, bytes: 0)

    package init(segments: Int, bytes: Int) {
        self.segments = segments
        self.bytes = bytes
    }

    /// One segment, `bytes` of which were not held.
    package mutating func count(bytes notHeld: Int) {
        segments += 1
        bytes += notHeld
    }

    package static func + (left: Self, right: Self) -> Self {
        OutOfOrderDrops(segments: left.segments + right.segments, bytes: left.bytes + right.bytes)
    }
}
