/// The transport protocol of a datagram, as the specs bucket it. Raw values are disk/wire format.
///
/// `other` is a bucket: the real protocol number travels beside it (`IPHeader.rawProtocol`).
public enum IPProtocolNumber: UInt8, Sendable, Hashable, Codable, CaseIterable {
    case icmp = 1
    case tcp = 6
    case udp = 17
    case icmpv6 = 58
    case other = 255

    /// The bucket for a protocol number read off the wire.
    @inline(__always)
    public init(wire value: UInt8) {
        switch value {
        case 1: self = .icmp
        case 6: self = .tcp
        case 17: self = .udp
        case 58: self = .icmpv6
        default: self = .other
        }
    }

    /// The name a person reads (`TCP`, `ICMPv6`); `other` has no name of its own.
    public var displayName: StaticString {
        switch self {
        case .icmp: "ICMP"
        case .tcp: "TCP"
        case .udp: "UDP"
        case .icmpv6: "ICMPv6"
        case .other: "other"
        }
    }
}
