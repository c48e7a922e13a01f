/// Which way a packet went, as seen from the monitored device. Raw values are disk/wire format.
package enum Direction: UInt8, Sendable, Hashable, Codable, CaseIterable {
    /// Device → network.
    case outbound = 0
    /// Network → device.
    case inbound = 1
}
