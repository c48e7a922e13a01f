/// An IPv4 or IPv6 fragment header's facts (RFC 791 §3.1, RFC 8200 §4.5).
package struct IPFragment: Sendable, Hashable {
    /// Offset of this fragment's data in the original payload, in bytes.
    package let offset: Int
    package let moreFragments: Bool
    package let identification: UInt32

    /// Only the first fragment carries the transport header.
    package var isFirst: Bool { offset == 0 }
}

/// The IP layer of a parsed datagram. Ranges index the buffer that was parsed.
package struct IPHeader: Sendable, Hashable {
    package let version: IPVersion
    package let source: IPAddress
    package let destination: IPAddress
    package let proto: IPProtocolNumber
    /// The wire protocol number (IPv6: the last next-header of the chain): `proto.rawValue`.
    package let rawProtocol: UInt8
    /// Bytes of IP header, IPv6 extension headers included.
    package let headerLength: Int
    /// The datagram's declared length (IPv4 total length; IPv6 40 + payload length).
    package let totalLength: Int
    package let hopLimit: UInt8
    /// Present when the datagram is a fragment (IPv4 MF or offset, or an IPv6 fragment header).
    package let fragment: IPFragment?
    /// The IP payload (transport header included), clipped to the bytes present.
    package let payloadRange: Range<Int>
}

package struct TCPHeader: Sendable, Hashable {
    package let sourcePort: UInt16
    package let destinationPort: UInt16
    package let sequence: UInt32
    package let acknowledgment: UInt32
    package let flags: TCPFlags
    package let windowSize: UInt16
    /// Header length including options.
    package let dataOffsetBytes: Int
    /// The segment's data, clipped to the bytes present.
    package let payloadRange: Range<Int>
}

package struct UDPHeader: Sendable, Hashable {
    package let sourcePort: UInt16
    package let destinationPort: UInt16
    /// The length field: header plus data.
    package let length: UInt16
    package let checksum: UInt16
    /// The datagram's data, clipped to the bytes present.
    package let payloadRange: Range<Int>
}

package struct ICMPHeader: Sendable, Hashable {
    package let type: UInt8
    package let code: UInt8
}

/// A datagram as the parser read it. Transport headers are nil for protocols the parser does not
/// dissect and for fragments after the first.
package struct ParsedPacket: Sendable, Hashable {
    package let ip: IPHeader
    package let tcp: TCPHeader?
    package let udp: UDPHeader?
    package let icmp: ICMPHeader?
    /// Bytes present; less than `originalLength` when a capture cut the packet at its snaplen.
    package let capturedLength: Int
    package let originalLength: Int

    /// Exactly as in the packet (port 0 when there is no TCP or UDP header). Derived, not stored:
    /// the addresses live in `ip` once, which keeps the per-packet value small.
    package var source: IPEndpoint {
        IPEndpoint(address: ip.source, port: tcp?.sourcePort ?? udp?.sourcePort ?? 0)
    }
    package var destination: IPEndpoint {
        IPEndpoint(address: ip.destination, port: tcp?.destinationPort ?? udp?.destinationPort ?? 0)
    }

    /// TCP or UDP data bytes the datagram carried on the wire (captured or not); nil without a
    /// transport header.
    package var transportPayloadLength: Int? {
        if let tcp { return ip.totalLength - ip.headerLength - tcp.dataOffsetBytes }
        if let udp { return Int(udp.length) - 8 }
        return nil
    }

    package var flowKey: FlowKey { FlowKey(proto: ip.proto, source: source, destination: destination) }
    package var isTruncated: Bool { capturedLength < originalLength }
}
