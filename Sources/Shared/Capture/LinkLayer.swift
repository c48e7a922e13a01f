/// The link layers a capture made elsewhere may wrap its IP datagrams in, and how to unwrap them
/// (the tcpdump.org LINKTYPE registry). Raw-IP captures — ours among them — need nothing.
package enum LinkLayer: Sendable, Equatable {
    /// LINKTYPE_RAW (101), LINKTYPE_IPV4 (228), LINKTYPE_IPV6 (229): the record is the datagram.
    case rawIP
    /// LINKTYPE_ETHERNET (1): a 14-byte header, then 802.1Q/802.1ad tags of 4 bytes each.
    case ethernet
    /// LINKTYPE_LINUX_SLL (113): `tcpdump -i any`'s 16-byte cooked header.
    case linuxCooked
    /// LINKTYPE_LINUX_SLL2 (276): the 20-byte cooked header of newer libpcap.
    case linuxCooked2
    /// LINKTYPE_NULL (0) and LINKTYPE_LOOP (108): BSD loopback's 4-byte address family, in the
    /// capturing host's byte order (NULL) or big-endian (LOOP).
    case bsdLoopback
    /// LINKTYPE_PPP (9): an optional `ff 03` address and control, then the PPP protocol (one byte
    /// when compressed).
    case ppp

    static let linkTypeNull: UInt32 = 0
    static let linkTypeEthernet: UInt32 = 1
    static let linkTypePPP: UInt32 = 9
    /// DLT_RAW's number on most BSDs (12) and on OpenBSD (14), found in files written with it
    /// (dpkt among the writers); libpcap writes 101 for both.
    static let linkTypeRawBSD: UInt32 = 12
    static let linkTypeRawOpenBSD: UInt32 = 14
    static let linkTypeLoop: UInt32 = 108
    static let linkTypeLinuxCooked: UInt32 = 113
    static let linkTypeLinuxCooked2: UInt32 = 276

    package init?(linkType: UInt32) {
        switch linkType {
        case PcapFormat.linkTypeRaw, PcapFormat.linkTypeIPv4, PcapFormat.linkTypeIPv6,
             Self.linkTypeRawBSD, Self.linkTypeRawOpenBSD: self = .rawIP
        case Self.linkTypeNull, Self.linkTypeLoop: self = .bsdLoopback
        case Self.linkTypePPP: self = .ppp
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

    /// BSD address families that mean IPv4 and IPv6 (IPv6's differs between the BSDs:
    /// NetBSD/OpenBSD 24, FreeBSD 28, Darwin 30).
    static let addressFamilyIPv4: UInt32 = 2
    static let addressFamiliesIPv6: [UInt32] = [24, 28, 30]
    /// PPP protocol numbers (RFC 1661 §2, RFC 5072).
    static let pppIPv4: UInt16 = 0x0021
    static let pppIPv6: UInt16 = 0x0057

    /// The IP datagram inside `frame`, or nil when the frame carries something else (ARP, LLDP…)
    /// or is cut before its payload.
    package func datagram(in frame: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let typeOffset: Int
        switch self {
        case .rawIP: return frame
        case .bsdLoopback: return Self.loopbackDatagram(in: frame)
        case .ppp: return Self.pppDatagram(in: frame)
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

    private static func loopbackDatagram(in frame: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard frame.count > 4 else { return nil }
        // Families are small: one written in the other byte order has its high half set.
        var family = frame.loadUnaligned(as: UInt32.self).littleEndianToHost
        if family > 0xFFFF { family = family.byteSwapped }
        guard family == addressFamilyIPv4 || addressFamiliesIPv6.contains(family) else { return nil }
        return UnsafeRawBufferPointer(rebasing: frame[4...])
    }

    private static func pppDatagram(in frame: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        var start = frame.count >= 2 && frame[0] == 0xFF && frame[1] == 0x03 ? 2 : 0
        guard frame.count > start else { return nil }
        let proto: UInt16
        if frame[start] & 1 == 1 {
            // Protocol-field compression (RFC 1661 §6.5): one byte, odd.
            proto = UInt16(frame[start])
            start += 1
        } else {
            guard frame.count >= start + 2 else { return nil }
            proto = UInt16(frame[start]) << 8 | UInt16(frame[start + 1])
            start += 2
        }
        guard proto == pppIPv4 || proto == pppIPv6, frame.count > start else { return nil }
        return UnsafeRawBufferPointer(rebasing: frame[start...])
    }
}
