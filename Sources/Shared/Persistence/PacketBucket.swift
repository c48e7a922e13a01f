import Foundation

/// How many packets fell in one interval of an activity histogram. Only non-empty intervals are
/// returned; filling the gaps with zeros is the drawer's job.
package struct PacketBucket: Sendable, Hashable {
    package let start: Date
    package let packetCount: Int

    package init(start: Date, packetCount: Int) {
        self.start = start
        self.packetCount = packetCount
    }
}
