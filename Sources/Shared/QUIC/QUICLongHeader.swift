import Foundation

/// The version of a QUIC long header, read from the version-independent invariants only
/// (RFC 8999 §5.1); nothing is decrypted.
///
///   0  1|1|type-specific(6)   long-header bit, then (RFC 9000 §17.2) the fixed bit
///   1  version (32)
///   5  DCID length (8) · DCID (0...255 bytes; ≤ 20 in versions 1 and 2)
///   .  SCID length (8) · SCID (likewise)
///
/// A long header counts only with the fixed bit set (grease-cleared packets, RFC 9287, are not
/// read) and a non-zero version (0 is Version Negotiation, which names no version of its own).
package enum QUICLongHeader {
    /// The longest connection ID versions 1 and 2 allow (RFC 9000 §17.2); unknown versions may
    /// use up to 255 (RFC 8999 §5.1).
    static let connectionIDLimit = 20

    /// The version of the long header `payload` (a UDP payload) starts with; nil when it is not
    /// one, by the rules above, or when its connection IDs do not fit the datagram or, for a
    /// known version, exceed `connectionIDLimit`.
    package static func version(in payload: Data) -> QUICVersion? {
        payload.withUnsafeBytes { version(in: $0) }
    }

    /// `version(in:)` over the raw bytes of a UDP payload.
    package static func version(in bytes: UnsafeRawBufferPointer) -> QUICVersion? {
        guard bytes.count >= 7, bytes[0] & 0xC0 == 0xC0 else { return nil }
        let version = QUICVersion(rawValue: bigEndianUInt32(bytes, at: 1))
        guard version.rawValue != 0 else { return nil }
        let limit = version.hasKnownPacketProtection ? connectionIDLimit : 255
        let destinationLength = Int(bytes[5])
        guard destinationLength <= limit else { return nil }
        // The SCID length byte must be present after the DCID.
        let sourceLengthIndex = 6 + destinationLength
        guard sourceLengthIndex < bytes.count else { return nil }
        let sourceLength = Int(bytes[sourceLengthIndex])
        guard sourceLength <= limit, sourceLengthIndex + 1 + sourceLength <= bytes.count else { return nil }
        return version
    }

    /// The version a UDP payload opens a QUIC connection with, by the one rule the pipeline and the
    /// relay share: a long header (`version(in:)`) toward QUIC's own port 443 in any version, or
    /// elsewhere in a version whose Initials open — so a datagram that merely begins like a long
    /// header (a DNS query whose ID starts with 0xC0…, one in four) does not pass for QUIC.
    package static func connectionVersion(in bytes: UnsafeRawBufferPointer, remotePort: UInt16) -> QUICVersion? {
        guard let version = version(in: bytes), remotePort == WellKnownPort.https || version.hasKnownPacketProtection else {
            return nil
        }
        return version
    }

    @inline(__always)
    static func bigEndianUInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
            | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }
}
