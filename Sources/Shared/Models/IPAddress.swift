#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address, stored inline so parsing a packet allocates nothing.
///
/// The bytes fill `high` then `low` in network order (an IPv4 address occupies the top 32 bits of
/// `high`, the rest zero), so comparing `(high, low)` within a family compares the bytes
/// lexicographically. Ordering: every IPv4 address before every IPv6 one, then by bytes.
package struct IPAddress: Sendable, Hashable, Comparable {
    package let version: IPVersion
    @usableFromInline let high: UInt64
    @usableFromInline let low: UInt64

    @inlinable
    init(version: IPVersion, high: UInt64, low: UInt64) {
        self.version = version
        self.high = high
        self.low = low
    }

    /// An IPv4 address from its 32-bit value in host order (`0x0A070002` is 10.7.0.2).
    @inlinable
    package init(ipv4 value: UInt32) {
        self.init(version: .v4, high: UInt64(value) << 32, low: 0)
    }

    /// An IPv6 address from its two 64-bit halves in host order.
    @inlinable
    package init(ipv6High high: UInt64, low: UInt64) {
        self.init(version: .v6, high: high, low: low)
    }

    /// An address from its bytes in network order: 4 bytes make IPv4, 16 make IPv6, and any other
    /// count is no address.
    package init?<C: Collection>(bytes: C) where C.Element == UInt8 {
        switch bytes.count {
        case 4:
            var value: UInt32 = 0
            for byte in bytes { value = value << 8 | UInt32(byte) }
            self.init(ipv4: value)
        case 16:
            var high: UInt64 = 0
            var low: UInt64 = 0
            for (index, byte) in bytes.enumerated() {
                if index < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
            }
            self.init(ipv6High: high, low: low)
        default:
            return nil
        }
    }

    /// The address's bytes in network order (4 or 16).
    package var bytes: [UInt8] {
        var storage = (UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &storage) { store(to: $0.baseAddress!) }
        return withUnsafeBytes(of: &storage) { Array($0.prefix(version.addressByteCount)) }
    }

    /// The IPv4 value in host order; meaningful only for `.v4`.
    @inlinable
    var ipv4Value: UInt32 { UInt32(truncatingIfNeeded: high >> 32) }

    /// Writes the address's bytes in network order at `pointer` (4 or 16 bytes).
    @inlinable
    package func store(to pointer: UnsafeMutableRawPointer) {
        if version == .v4 {
            pointer.storeBytes(of: ipv4Value.bigEndian, as: UInt32.self)
        } else {
            pointer.storeBytes(of: high.bigEndian, as: UInt64.self)
            (pointer + 8).storeBytes(of: low.bigEndian, as: UInt64.self)
        }
    }

    /// Reads an address of `version` from network-order bytes at `pointer` (no alignment needed).
    @inlinable
    package static func load(_ version: IPVersion, from pointer: UnsafeRawPointer) -> IPAddress {
        if version == .v4 {
            return IPAddress(ipv4: UInt32(bigEndian: pointer.loadUnaligned(as: UInt32.self)))
        }
        return IPAddress(ipv6High: UInt64(bigEndian: pointer.loadUnaligned(as: UInt64.self)),
                         low: UInt64(bigEndian: (pointer + 8).loadUnaligned(as: UInt64.self)))
    }

    @inlinable
    package static func < (lhs: IPAddress, rhs: IPAddress) -> Bool {
        if lhs.version != rhs.version { return lhs.version.rawValue < rhs.version.rawValue }
        if lhs.high != rhs.high { return lhs.high < rhs.high }
        return lhs.low < rhs.low
    }
}

extension IPAddress {
    /// Parses presentation text with `inet_pton`. A zone (`fe80::1%eth0`) is refused outright:
    /// the address model has no zone, and silently dropping it would name another host.
    package init?(parsing text: String) {
        guard !text.contains("%") else { return nil }
        var buffer = (UInt64(0), UInt64(0))
        let isV4 = withUnsafeMutableBytes(of: &buffer) { inet_pton(AF_INET, text, $0.baseAddress) == 1 }
        if isV4 {
            self = withUnsafeBytes(of: &buffer) { IPAddress.load(.v4, from: $0.baseAddress!) }
            return
        }
        let isV6 = withUnsafeMutableBytes(of: &buffer) { inet_pton(AF_INET6, text, $0.baseAddress) == 1 }
        guard isV6 else { return nil }
        self = withUnsafeBytes(of: &buffer) { IPAddress.load(.v6, from: $0.baseAddress!) }
    }
}

extension IPAddress: CustomStringConvertible {
    /// Dotted quad for IPv4; RFC 5952 text for IPv6.
    package var description: String {
        var writer = ASCIIWriter(capacity: 39)
        write(to: &writer)
        return writer.string
    }

    /// Appends the address's text: dotted quad for IPv4; for IPv6, RFC 5952 §4 — lowercase hex,
    /// no leading zeros, the longest run of two or more zero groups as `::` (the first on a tie),
    /// a lone zero group left as `0`.
    package func write(to writer: inout ASCIIWriter) {
        // One reservation for the whole address (at most 39 bytes): the listing writes two a line.
        writer.write(reserving: 39) { start in
            if version == .v4 {
                var length = 0
                let value = ipv4Value
                for index in 0..<4 {
                    if index > 0 { start[length] = UInt8(ascii: "."); length += 1 }
                    length += ASCIIWriter.storeDecimal(UInt64(UInt8(truncatingIfNeeded: value >> UInt32(24 - 8 * index))),
                                                       at: start + length)
                }
                return length
            }
            let groups = (high, low)
            @inline(__always) func group(_ index: Int) -> UInt16 {
                UInt16(truncatingIfNeeded: (index < 4 ? groups.0 : groups.1) >> UInt64(48 - 16 * (index & 3)))
            }
            // The longest run of zero groups (RFC 5952 §4.2.3: first one wins a tie; §4.2.2: ≥ 2).
            var bestStart = -1, bestLength = 0, runStart = -1
            for index in 0...8 {
                if index < 8 && group(index) == 0 {
                    if runStart < 0 { runStart = index }
                } else if runStart >= 0 {
                    if index - runStart > bestLength { bestStart = runStart; bestLength = index - runStart }
                    runStart = -1
                }
            }
            if bestLength < 2 { bestStart = -1 }
            var length = 0
            var index = 0
            while index < 8 {
                if index == bestStart {
                    start[length] = UInt8(ascii: ":")
                    start[length + 1] = UInt8(ascii: ":")
                    length += 2
                    index += bestLength
                    continue
                }
                if index > 0 && index != bestStart + bestLength { start[length] = UInt8(ascii: ":"); length += 1 }
                length += ASCIIWriter.storeHex(group(index), at: start + length)
                index += 1
            }
            return length
        }
    }
}

extension IPAddress: Codable {
    /// Encoded as its presentation text, so exported JSON reads as addresses do everywhere else.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let address = IPAddress(parsing: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an IP address: \(text)")
        }
        self = address
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
