/// An IPv4 or IPv6 fragment header's facts (RFC 791 §3.1, RFC 8200 §4.5).
public struct IPFragment: Sendable, Hashable {
    /// Offset of this fragment's data in the original payload, in bytes.
    public let offset: Int
    public let moreFragments: Bool
    public let identification: UInt32

    /// Only the first fragment carries the transport header.
    public var isFirst: Bool { offset == 0 }
}

/// The IP layer of a parsed datagram. Ranges index the buffer that was parsed.
public struct IPHeader: Sendable, Hashable {
    public let version: IPVersion
    public let source: IPAddress
    public let destination: IPAddress
    public let proto: IPProtocolNumber
    /// The wire protocol number (IPv6: the last next-header of the chain): `proto.rawValue`.
    public let rawProtocol: UInt8
    /// Bytes of IP header, IPv6 extension headers included.
    public let headerLength: Int
    /// The datagram's declared length (IPv4 total length; IPv6 40 + payload length).
    public let totalLength: Int
    public let hopLimit: UInt8
    /// Present when the datagram is a fragment (IPv4 MF or offset, or an IPv6 fragment header).
    public let fragment: IPFragment?
    /// The IP payload (transport header included), clipped to the bytes present.
    public let payloadRange: Range<Int>
}

public struct TCPHeader: Sendable, Hashable {
    public let sourcePort: UInt16
    public let destinationPort: UInt16
    public let sequence: UInt32
    public let acknowledgment: UInt32
    public let flags: TCPFlags
    public let windowSize: UInt16
    /// Header length including options.
    public let dataOffsetBytes: Int
    /// The segment's data, clipped to the bytes present.
    public let payloadRange: Range<Int>
}

public struct UDPHeader: Sendable, Hashable {
    public let sourcePort: UInt16
    public let destinationPort: UInt16
    /// The length field: header plus data.
    public let length: UInt16
    public let checksum: UInt16
    /// The datagram's data, clipped to the bytes present.
    public let payloadRange: Range<Int>
}

public struct ICMPHeader: Sendable, Hashable {
    public let type: UInt8
    public let code: UInt8
}

/// A datagram as the parser read it. Transport headers are nil for protocols the parser does not
/// dissect and for fragments after the first.
public struct ParsedPacket: Sendable, Hashable {
    public let ip: IPHeader
    public let tcp: TCPHeader?
    public let udp: UDPHeader?
    public let icmp: ICMPHeader?
    /// Bytes present; less than `originalLength` when a capture cut the packet at its snaplen.
    public let capturedLength: Int
    public let originalLength: Int

    /// Exactly as in the packet (port 0 when there is no TCP or UDP header). Derived, not stored:
    /// the addresses live in `ip` once, which keeps the per-packet value small.
    public var source: IPEndpoint {
        IPEndpoint(address: ip.source, port: tcp?.sourcePort ?? udp?.sourcePort ?? 0)
    }
    public var destination: IPEndpoint {
        IPEndpoint(address: ip.destination, port: tcp?.destinationPort ?? udp?.destinationPort ?? 0)
    }

    /// TCP or UDP data bytes the datagram carried on the wire (captured or not); nil without a
    /// transport header.
    public var transportPayloadLength: Int? {
        if let tcp { return ip.totalLength - ip.headerLength - tcp.dataOffsetBytes }
        if let udp { return Int(udp.length) - 8 }
        return nil
    }

    public var flowKey: FlowKey { FlowKey(proto: ip.proto, source: source, destination: destination) }
    public var isTruncated: Bool { capturedLength < originalLength }
}
