import Foundation

/// How many packets fell in one interval of an activity histogram. Only non-empty intervals are
/// returned; filling the gaps with zeros is the drawer's job.
public struct PacketBucket: Sendable, Hashable {
    public let start: Date
    public let packetCount: Int

    public init(start: Date, packetCount: Int) {
        self.start = start
        self.packetCount = packetCount
    }
}
