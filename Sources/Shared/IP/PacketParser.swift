import Foundation

/// Raw IP datagram → typed headers, with no copies: payloads are ranges into the parsed buffer.
///
/// Grammar read (offsets from the start of each header):
///   IPv4 (RFC 791 §3.1):  0 ver|IHL · 2 total length · 4 id · 6 flags|fragment offset · 8 TTL ·
///                         9 protocol · 12 source · 16 destination · 20 options (IHL×4 − 20)
///   IPv6 (RFC 8200 §3):   0 ver|class|label · 4 payload length · 6 next header · 7 hop limit ·
///                         8 source · 24 destination · 40 extension headers (§4)
///   TCP (RFC 9293 §3.1):  0 sport · 2 dport · 4 seq · 8 ack · 12 offset · 13 flags · 14 window
///   UDP (RFC 768):        0 sport · 2 dport · 4 length · 6 checksum
///   ICMP (RFC 792), ICMPv6 (RFC 4443 §2.1): 0 type · 1 code · 2 checksum
package enum PacketParser {
    /// Extension headers walked before the chain is refused as absurd.
    package static let extensionHeaderLimit = 8

    /// Parses `packet`. `protocolFamily` (AF_INET / AF_INET6, as a TUN or packetFlow reports it) is
    /// only a hint: the version nibble wins. Ranges index `packet` (its own indices).
    package static func parse(_ packet: Data, protocolFamily: Int32 = 0) throws(PacketParseError) -> ParsedPacket {
        let base = packet.startIndex
        let result: Result<ParsedPacket, PacketParseError> = packet.withUnsafeBytes { bytes in
            do throws(PacketParseError) {
                return .success(try parse(bytes, indexBase: base))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses the bytes of a datagram, or of a capture record holding its first `bytes.count` bytes
    /// of `originalLength` (snaplen truncation): then lengths are checked against the original and
    /// ranges clipped to what is present. Ranges are offsets from the start of `bytes`, plus
    /// `indexBase`.
    package static func parse(_ bytes: UnsafeRawBufferPointer, originalLength: Int? = nil,
                             indexBase: Int = 0) throws(PacketParseError) -> ParsedPacket {
        guard let start = bytes.baseAddress, bytes.count > 0 else { throw .tooShort(expected: 1, got: 0) }
        let input = RawDatagram(start: start, captured: bytes.count,
                                original: max(bytes.count, originalLength ?? bytes.count), indexBase: indexBase)
        switch start.load(as: UInt8.self) >> 4 {
        case 4: return try parseIPv4(input)
        case 6: return try parseIPv6(input)
        case let version: throw .unsupportedVersion(version)
        }
    }

    struct RawDatagram {
        let start: UnsafeRawPointer
        /// Bytes present.
        let captured: Int
        /// Bytes the datagram had on the wire (≥ captured).
        let original: Int
        let indexBase: Int

        init(start: UnsafeRawPointer, captured: Int, original: Int, indexBase: Int) {
            self.start = start
            self.captured = captured
            self.original = original
            self.indexBase = indexBase
        }

        func u8(_ offset: Int) -> UInt8 { start.load(fromByteOffset: offset, as: UInt8.self) }
        func u16(_ offset: Int) -> UInt16 {
            UInt16(bigEndian: start.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
        }
        func u32(_ offset: Int) -> UInt32 {
            UInt32(bigEndian: start.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }
        /// `lower..<upper` clipped to the bytes present, shifted into the caller's indices.
        func range(_ lower: Int, _ upper: Int) -> Range<Int> {
            let clippedUpper = min(upper, captured)
            let clippedLower = min(lower, clippedUpper)
            return (indexBase + clippedLower)..<(indexBase + clippedUpper)
        }
    }

    // Inlined, as are the two below: each call level returning the 216-byte parse through typed
    // throws copied it once more (memcpy), a few percent of `analyze` (perf).
    @inline(__always)
    static func parseIPv4(_ datagram: RawDatagram) throws(PacketParseError) -> ParsedPacket {
        guard datagram.captured >= 20 else { throw .tooShort(expected: 20, got: datagram.captured) }
        let headerLength = Int(datagram.u8(0) & 0x0F) * 4
        // 0 is what a capture taken before TCP segmentation offload holds (the NIC fills it in
        // later): the datagram is as long as the record says, as Wireshark reads it too.
        let declaredLength = Int(datagram.u16(2))
        let totalLength = declaredLength == 0 ? datagram.original : declaredLength
        guard headerLength >= 20, headerLength <= totalLength else { throw .badHeaderLength(headerLength) }
        guard totalLength <= datagram.original else {
            throw .totalLengthBeyondBuffer(declared: totalLength, available: datagram.original)
        }
        guard headerLength <= datagram.captured else { throw .tooShort(expected: headerLength, got: datagram.captured) }
        let flagsAndOffset = datagram.u16(6)
        let fragmentOffset = Int(flagsAndOffset & 0x1FFF) * 8
        let moreFragments = flagsAndOffset & 0x2000 != 0
        let fragment = (fragmentOffset != 0 || moreFragments)
            ? IPFragment(offset: fragmentOffset, moreFragments: moreFragments, identification: UInt32(datagram.u16(4)))
            : nil
        let rawProtocol = datagram.u8(9)
        return try parseTransport(
            datagram, version: .v4,
            source: IPAddress.load(.v4, from: datagram.start + 12),
            destination: IPAddress.load(.v4, from: datagram.start + 16),
            rawProtocol: rawProtocol, headerLength: headerLength, totalLength: totalLength,
            hopLimit: datagram.u8(8), fragment: fragment)
    }

    @inline(__always)
    static func parseIPv6(_ datagram: RawDatagram) throws(PacketParseError) -> ParsedPacket {
        guard datagram.captured >= 40 else { throw .tooShort(expected: 40, got: datagram.captured) }
        let totalLength = 40 + Int(datagram.u16(4))
        guard totalLength <= datagram.original else {
            throw .totalLengthBeyondBuffer(declared: totalLength, available: datagram.original)
        }
        var nextHeader = datagram.u8(6)
        var offset = 40
        var fragment: IPFragment?
        var walked = 0
        // RFC 8200 §4: hop-by-hop (0), routing (43), fragment (44), destination options (60), and
        // AH (51, RFC 4302 §2.2, whose length counts 4-byte words) — walked until an upper layer.
        while nextHeader == 0 || nextHeader == 43 || nextHeader == 44 || nextHeader == 60 || nextHeader == 51 {
            guard walked < extensionHeaderLimit else { throw .extensionChainTooLong(limit: extensionHeaderLimit) }
            walked += 1
            guard offset + 8 <= min(totalLength, datagram.captured) else {
                throw .extensionHeaderTruncated(nextHeader: nextHeader, offset: offset)
            }
            let length: Int
            switch nextHeader {
            case 44:
                length = 8
                let offsetAndFlags = datagram.u16(offset + 2)
                fragment = IPFragment(offset: Int(offsetAndFlags >> 3) * 8,
                                      moreFragments: offsetAndFlags & 1 != 0,
                                      identification: datagram.u32(offset + 4))
            case 51:
                length = (Int(datagram.u8(offset + 1)) + 2) * 4
            default:
                length = (Int(datagram.u8(offset + 1)) + 1) * 8
            }
            guard offset + length <= totalLength else {
                throw .extensionHeaderTruncated(nextHeader: nextHeader, offset: offset)
            }
            nextHeader = datagram.u8(offset)
            offset += length
            // A later fragment's next header names the protocol, but no header of it follows.
            if let fragment, !fragment.isFirst { break }
        }
        return try parseTransport(
            datagram, version: .v6,
            source: IPAddress.load(.v6, from: datagram.start + 8),
            destination: IPAddress.load(.v6, from: datagram.start + 24),
            rawProtocol: nextHeader, headerLength: offset, totalLength: totalLength,
            hopLimit: datagram.u8(7), fragment: fragment)
    }

    @inline(__always)
    static func parseTransport(
        _ datagram: RawDatagram, version: IPVersion, source: IPAddress, destination: IPAddress,
        rawProtocol: UInt8, headerLength: Int, totalLength: Int, hopLimit: UInt8, fragment: IPFragment?
    ) throws(PacketParseError) -> ParsedPacket {
        let proto = IPProtocolNumber(wire: rawProtocol)
        let ip = IPHeader(version: version, source: source, destination: destination, proto: proto,
                          rawProtocol: rawProtocol, headerLength: headerLength, totalLength: totalLength,
                          hopLimit: hopLimit, fragment: fragment,
                          payloadRange: datagram.range(headerLength, totalLength))
        var tcp: TCPHeader?
        var udp: UDPHeader?
        var icmp: ICMPHeader?
        var sourcePort: UInt16
        var destinationPort: UInt16
        let l4 = headerLength
        let segmentLength = totalLength - l4
        let present = max(0, min(totalLength, datagram.captured) - l4)
        if fragment?.isFirst ?? true {
            switch proto {
            case .tcp:
                guard present >= 20 else { throw .truncatedL4(expected: 20, got: present) }
                let dataOffset = Int(datagram.u8(l4 + 12) >> 4) * 4
                // A first fragment may end inside its own segment: the bound is what this datagram holds.
                guard dataOffset >= 20, dataOffset <= segmentLength else { throw .badDataOffset(dataOffset) }
                guard dataOffset <= present else { throw .truncatedL4(expected: dataOffset, got: present) }
                sourcePort = datagram.u16(l4)
                destinationPort = datagram.u16(l4 + 2)
                tcp = TCPHeader(sourcePort: sourcePort, destinationPort: destinationPort,
                                sequence: datagram.u32(l4 + 4), acknowledgment: datagram.u32(l4 + 8),
                                flags: TCPFlags(rawValue: datagram.u8(l4 + 13)), windowSize: datagram.u16(l4 + 14),
                                dataOffsetBytes: dataOffset,
                                payloadRange: datagram.range(l4 + dataOffset, totalLength))
            case .udp:
                guard present >= 8 else { throw .truncatedL4(expected: 8, got: present) }
                let length = Int(datagram.u16(l4 + 4))
                // A first fragment holds only part of the datagram its length field describes.
                let bound = fragment == nil ? segmentLength : Int(UInt16.max)
                guard length >= 8, length <= bound else { throw .badUDPLength(declared: length, available: segmentLength) }
                sourcePort = datagram.u16(l4)
                destinationPort = datagram.u16(l4 + 2)
                udp = UDPHeader(sourcePort: sourcePort, destinationPort: destinationPort,
                                length: UInt16(length), checksum: datagram.u16(l4 + 6),
                                payloadRange: datagram.range(l4 + 8, min(l4 + length, totalLength)))
            case .icmp, .icmpv6:
                guard present >= 4 else { throw .truncatedL4(expected: 4, got: present) }
                icmp = ICMPHeader(type: datagram.u8(l4), code: datagram.u8(l4 + 1))
            default:
                break
            }
        }
        return ParsedPacket(ip: ip, tcp: tcp, udp: udp, icmp: icmp, capturedLength: datagram.captured,
                            originalLength: datagram.original)
    }
}
