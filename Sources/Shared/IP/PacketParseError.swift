/// Every way a datagram can lie to the parser. Structural: the caller counts the packet as
/// malformed and drops it (the capture keeps its bytes). Nothing here is thrown for a protocol the
/// parser merely does not dissect — ICMP and unknown protocols parse with no transport header.
package enum PacketParseError: Error, Sendable, Hashable {
    /// Fewer bytes than the fixed IP header needs (1 to read the version, 20 for IPv4, 40 for IPv6).
    case tooShort(expected: Int, got: Int)
    /// The version nibble is neither 4 nor 6.
    case unsupportedVersion(UInt8)
    /// IPv4 IHL × 4 is below 20, or past the end of the datagram it heads.
    case badHeaderLength(Int)
    /// The declared datagram length (IPv4 total length, IPv6 40 + payload length) is more than the
    /// packet carried (its original length, for a capture record cut by snaplen).
    case totalLengthBeyondBuffer(declared: Int, available: Int)
    /// An IPv6 extension header runs past the datagram, or past the bytes captured of it.
    case extensionHeaderTruncated(nextHeader: UInt8, offset: Int)
    /// More IPv6 extension headers than any legitimate sender chains (RFC 8200 §4.1 orders at most
    /// seven); refusing bounds the walk.
    case extensionChainTooLong(limit: Int)
    /// The TCP data offset × 4 is below 20 or past the end of the segment.
    case badDataOffset(Int)
    /// The transport header (TCP 20, UDP 8, ICMP 4 bytes, or TCP's declared options) does not fit
    /// in the bytes present.
    case truncatedL4(expected: Int, got: Int)
    /// The UDP length field is below 8 or beyond the IP payload.
    case badUDPLength(declared: Int, available: Int)
}

extension PacketParseError: CustomStringConvertible {
    /// A short, stable identifier of the case (for counters, JSON and tests).
    package var kind: String {
        switch self {
        case .tooShort: "tooShort"
        case .unsupportedVersion: "unsupportedVersion"
        case .badHeaderLength: "badHeaderLength"
        case .totalLengthBeyondBuffer: "totalLengthBeyondBuffer"
        case .extensionHeaderTruncated: "extensionHeaderTruncated"
        case .extensionChainTooLong: "extensionChainTooLong"
        case .badDataOffset: "badDataOffset"
        case .truncatedL4: "truncatedL4"
        case .badUDPLength: "badUDPLength"
        }
    }

    package var description: String {
        switch self {
        case let .tooShort(expected, got): "too short: \(got) bytes, an IP header needs \(expected)"
        case let .unsupportedVersion(version): "IP version \(version) is neither 4 nor 6"
        case let .badHeaderLength(length): "IPv4 header length \(length) is impossible"
        case let .totalLengthBeyondBuffer(declared, available):
            "datagram declares \(declared) bytes but \(available) arrived"
        case let .extensionHeaderTruncated(nextHeader, offset):
            "IPv6 extension header \(nextHeader) at byte \(offset) runs past the datagram"
        case let .extensionChainTooLong(limit): "more than \(limit) IPv6 extension headers"
        case let .badDataOffset(length): "TCP header length \(length) is impossible"
        case let .truncatedL4(expected, got): "transport header needs \(expected) bytes, \(got) present"
        case let .badUDPLength(declared, available):
            "UDP length \(declared) does not fit the \(available) bytes of IP payload"
        }
    }
}
