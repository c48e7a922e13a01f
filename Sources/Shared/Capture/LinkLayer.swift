/// The link layers a capture made elsewhere may wrap its IP datagrams in, and how to unwrap them
/// (the tcpdump.org LINKTYPE registry). Raw-IP captures — ours among them — need nothing.
public enum LinkLayer: Sendable, Equatable {
    /// LINKTYPE_RAW (101), LINKTYPE_IPV4 (228), LINKTYPE_IPV6 (229): the record is the datagram.
    case rawIP
    /// LINKTYPE_ETHERNET (1): a 14-byte header, then 802.1Q/802.1ad tags of 4 bytes each.
    case ethernet
    /// LINKTYPE_LINUX_SLL (113): `tcpdump -i any`'s 16-byte cooked header.
    case linuxCooked
    /// LINKTYPE_LINUX_SLL2 (276): the 20-byte cooked header of newer libpcap.
    case linuxCooked2

    public static let linkTypeEthernet: UInt32 = 1
    public static let linkTypeLinuxCooked: UInt32 = 113
    public static let linkTypeLinuxCooked2: UInt32 = 276

    public init?(linkType: UInt32) {
        switch linkType {
        case PcapFormat.linkTypeRaw, PcapFormat.linkTypeIPv4, PcapFormat.linkTypeIPv6: self = .rawIP
        case Self.linkTypeEthernet: self = .ethernet
        case Self.linkTypeLinuxCooked: self = .linuxCooked
        case Self.linkTypeLinuxCooked2: self = .linuxCooked2
        default: return nil
        }
    }

    /// EtherTypes (IEEE registry) that matter here.
    static let etherTypeIPv4: UInt16 = 0x0800
    static let etherTypeIPv6: UInt16 = 0x86DD
    static let etherTypeVLAN: UInt16 = 0x8100
    static let etherTypeQinQ: UInt16 = 0x88A8

    /// The IP datagram inside `frame`, or nil when the frame carries something else (ARP, LLDP…)
    /// or is cut before its payload.
    public func datagram(in frame: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let typeOffset: Int
        switch self {
        case .rawIP: return frame
        case .ethernet: typeOffset = 12
        case .linuxCooked: typeOffset = 14
        case .linuxCooked2: typeOffset = 0
        }
        guard frame.count >= typeOffset + 2 else { return nil }
        var etherType = UInt16(frame[typeOffset]) << 8 | UInt16(frame[typeOffset + 1])
        var payloadStart = switch self {
        case .linuxCooked2: 20
        default: typeOffset + 2
        }
        // Ethernet may stack VLAN tags before the EtherType that names the payload.
        while self == .ethernet, etherType == Self.etherTypeVLAN || etherType == Self.etherTypeQinQ {
            guard frame.count >= payloadStart + 4 else { return nil }
            etherType = UInt16(frame[payloadStart + 2]) << 8 | UInt16(frame[payloadStart + 3])
            payloadStart += 4
        }
        guard etherType == Self.etherTypeIPv4 || etherType == Self.etherTypeIPv6, frame.count > payloadStart else { return nil }
        return UnsafeRawBufferPointer(rebasing: frame[payloadStart...])
    }
}
