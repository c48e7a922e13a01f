import Foundation

/// The cleartext part of an Initial packet (RFC 9000 §17.2.2, RFC 9369 §3.2), the client's or the
/// server's (whose token is empty): everything before the protected packet number. Checked once;
/// after that every field is plain.
///
///   0   1|1|type(2)|reserved(2)|pn length(2)   type 00 is Initial in v1, 01 in v2; the low four
///                                              bits are under header protection
///   1   version (32)                           1 or 2 only
///   5   DCID length (8) ≤ 20 · DCID
///   .   SCID length (8) ≤ 20 · SCID
///   .   token length (varint) · token
///   .   Length (varint) ≥ 20                   packet number + payload + 16-byte tag
///   .   packet number (8...32, protected) · payload (protected)
///
/// A datagram may hold several packets (RFC 9000 §12.2): this one ends at
/// `packetNumberOffset + packetLength`, and whatever follows is the next packet.
package struct QUICInitialHeader: Sendable, Hashable {
    package let version: QUICVersion
    package let destinationConnectionID: Data
    package let sourceConnectionID: Data
    package let tokenLength: Int
    /// Where the packet number starts, from the start of the packet.
    package let packetNumberOffset: Int
    /// The Length field: bytes from `packetNumberOffset` to the end of this packet.
    package let packetLength: Int

    /// The bytes this packet takes in the datagram; the next coalesced packet starts there.
    package var totalLength: Int { packetNumberOffset + packetLength }

    /// Shortest Length that leaves a full sample 4 bytes past the packet number start
    /// (RFC 9001 §5.4.2).
    package static let minimumPacketLength = 4 + QUICHeaderProtection.sampleLength

    /// Reads the header of the Initial `datagram` starts with (a slice works: offsets
    /// count from its first byte).
    package init(datagram: Data) throws(QUICInitialError) {
        let result = datagram.withUnsafeBytes { bytes in
            Result { () throws(QUICInitialError) in try QUICInitialHeader(bytes: bytes) }
        }
        self = try result.get()
    }

    /// `init(datagram:)` over raw bytes.
    package init(bytes: UnsafeRawBufferPointer) throws(QUICInitialError) {
        guard bytes.count >= 1 else { throw .truncated }
        let first = bytes[0]
        guard first & 0xC0 == 0xC0 else { throw .notALongHeader }
        guard bytes.count >= 5 else { throw .truncated }
        let version = QUICVersion(rawValue: QUICLongHeader.bigEndianUInt32(bytes, at: 1))
        guard let initialType = Self.initialTypeBits(version) else { throw .unsupportedVersion(version) }
        guard (first >> 4) & 0x03 == initialType else { throw .notAnInitial }

        var offset = 5
        let destination = try Self.connectionID(bytes, at: &offset)
        let source = try Self.connectionID(bytes, at: &offset)
        guard let tokenLength = QUICVarint.read(from: bytes, at: &offset) else { throw .truncated }
        guard tokenLength <= UInt64(bytes.count - offset) else { throw .truncated }
        offset += Int(tokenLength)
        guard let length = QUICVarint.read(from: bytes, at: &offset) else { throw .truncated }
        guard length >= UInt64(Self.minimumPacketLength) else { throw .tooShortToSample }
        guard length <= UInt64(bytes.count - offset) else { throw .truncated }

        self.version = version
        self.destinationConnectionID = destination
        self.sourceConnectionID = source
        self.tokenLength = Int(tokenLength)
        self.packetNumberOffset = offset
        self.packetLength = Int(length)
    }

    /// The long-header type bits (first byte, bits 0x30) that mean Initial: RFC 9369 §3.2
    /// renumbered all four, so the same first byte is an Initial in v1 and a Retry in v2.
    static func initialTypeBits(_ version: QUICVersion) -> UInt8? {
        switch version {
        case .v1: 0b00
        case .v2: 0b01
        default: nil
        }
    }

    /// A length byte and that many bytes of connection ID, at most 20 (RFC 9000 §17.2).
    private static func connectionID(_ bytes: UnsafeRawBufferPointer, at offset: inout Int) throws(QUICInitialError) -> Data {
        guard offset < bytes.count else { throw .truncated }
        let length = Int(bytes[offset])
        guard length <= QUICLongHeader.connectionIDLimit else { throw .connectionIDTooLong }
        guard length <= bytes.count - offset - 1 else { throw .truncated }
        let id = Data(UnsafeRawBufferPointer(rebasing: bytes[(offset + 1)..<(offset + 1 + length)]))
        offset += 1 + length
        return id
    }
}
