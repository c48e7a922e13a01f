/// The protocol number of a datagram (IPv4 protocol, IPv6 last next header; IANA "Assigned
/// Internet Protocol Numbers"). An open code point (STYLE.md §3): a number this build does not
/// dissect — GRE 47, ESP 50 — is kept as it is, so two such flows between the same hosts are two
/// flows. The raw value is the disk and wire format.
package struct IPProtocolNumber: RawRepresentable, Sendable, Hashable, Codable {
    package let rawValue: UInt8

    @inline(__always)
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The number read off the wire, kept whatever it is.
    @inline(__always)
    package init(wire value: UInt8) { self.init(rawValue: value) }

    package static let icmp = IPProtocolNumber(rawValue: 1)
    package static let tcp = IPProtocolNumber(rawValue: 6)
    package static let udp = IPProtocolNumber(rawValue: 17)
    package static let icmpv6 = IPProtocolNumber(rawValue: 58)
    /// IANA's reserved 255: stands for a number that was not kept — the live feed's 4-bit code
    /// (`PacketProtocolCode.other`) and history rows written before the number was kept.
    package static let other = IPProtocolNumber(rawValue: 255)

    /// The protocols the parser dissects or names, in number order.
    package static let named: [IPProtocolNumber] = [.icmp, .tcp, .udp, .icmpv6]

    /// The name a person reads (`TCP`, `ICMPv6`); nil for a number this build has no name for.
    package var knownName: StaticString? {
        switch self {
        case .icmp: "ICMP"
        case .tcp: "TCP"
        case .udp: "UDP"
        case .icmpv6: "ICMPv6"
        default: nil
        }
    }

    /// `knownName`, or `proto-47` for a number without one (the packet listing's spelling).
    package var displayName: String {
        knownName.map { "\($0)" } ?? "proto-\(rawValue)"
    }
}
