import Foundation

/// What a monitor needs of a Retry packet (RFC 9000 §17.2.5, RFC 9369 §3.2): the server's
/// answer to a client Initial asking it to begin again with a token. The client's next Initials
/// are sent to the Retry's Source Connection ID, and both sides' Initial keys come from that ID
/// from then on (RFC 9001 §5.2).
///
///   0  1|1|type(2)|unused(4)   type 11 in v1, 00 in v2
///   1  version (32)
///   5  DCID length (8) ≤ 20 · DCID · SCID length (8) ≤ 20 · SCID
///   .  token · integrity tag (16)
///
/// The integrity tag is not checked: nothing is trusted to it but which connection ID keys may
/// come from next, and a reader tries the earlier one too.
package struct QUICRetryHeader: Sendable, Hashable {
    package let version: QUICVersion
    package let sourceConnectionID: Data

    /// The tag every Retry ends with (RFC 9001 §5.8).
    package static let integrityTagLength = 16

    /// The Retry `datagram` starts with (a slice works); nil when it is not one of a version
    /// whose packet types are known, or is too short to hold its IDs and tag.
    package init?(datagram: Data) {
        guard let read = datagram.withUnsafeBytes({ Self.read($0) }) else { return nil }
        (version, sourceConnectionID) = read
    }

    private static func read(_ bytes: UnsafeRawBufferPointer) -> (QUICVersion, Data)? {
        guard bytes.count >= 7, bytes[0] & 0xC0 == 0xC0 else { return nil }
        let version = QUICVersion(rawValue: QUICLongHeader.bigEndianUInt32(bytes, at: 1))
        guard let retryType = retryTypeBits(version), (bytes[0] >> 4) & 0x03 == retryType else { return nil }
        let destinationLength = Int(bytes[5])
        let sourceLengthIndex = 6 + destinationLength
        guard destinationLength <= QUICLongHeader.connectionIDLimit, sourceLengthIndex < bytes.count else { return nil }
        let sourceLength = Int(bytes[sourceLengthIndex])
        let sourceEnd = sourceLengthIndex + 1 + sourceLength
        guard sourceLength <= QUICLongHeader.connectionIDLimit, sourceEnd + integrityTagLength <= bytes.count else { return nil }
        return (version, Data(UnsafeRawBufferPointer(rebasing: bytes[(sourceLengthIndex + 1)..<sourceEnd])))
    }

    /// The long-header type bits that mean Retry: RFC 9369 §3.2 renumbered them.
    static func retryTypeBits(_ version: QUICVersion) -> UInt8? {
        switch version {
        case .v1: 0b11
        case .v2: 0b00
        default: nil
        }
    }
}
