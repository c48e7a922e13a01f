/// Datagrams dropped because they did not parse, one counter per `PacketParseError` case: "too
/// short" is a device sending runts, "unsupported version" is not IP at all, a bad UDP length is
/// a broken or hostile sender — each a different thing to tell the person.
package struct ParseDropStats: Codable, Sendable, Equatable {
    /// `PacketParseError.tooShort`.
    package var tooShort: UInt64
    /// `PacketParseError.unsupportedVersion`.
    package var unsupportedVersion: UInt64
    /// `PacketParseError.badHeaderLength`.
    package var badHeaderLength: UInt64
    /// `PacketParseError.totalLengthBeyondBuffer`.
    package var totalLengthBeyondBuffer: UInt64
    /// `PacketParseError.extensionHeaderTruncated`.
    package var extensionHeaderTruncated: UInt64
    /// `PacketParseError.extensionChainTooLong`.
    package var extensionChainTooLong: UInt64
    /// `PacketParseError.badDataOffset`.
    package var badDataOffset: UInt64
    /// `PacketParseError.truncatedL4`.
    package var truncatedL4: UInt64
    /// `PacketParseError.badUDPLength`.
    package var badUDPLength: UInt64

    package init(tooShort: UInt64 = 0, unsupportedVersion: UInt64 = 0, badHeaderLength: UInt64 = 0,
                totalLengthBeyondBuffer: UInt64 = 0, extensionHeaderTruncated: UInt64 = 0,
                extensionChainTooLong: UInt64 = 0, badDataOffset: UInt64 = 0, truncatedL4: UInt64 = 0,
                badUDPLength: UInt64 = 0) {
        self.tooShort = tooShort
        self.unsupportedVersion = unsupportedVersion
        self.badHeaderLength = badHeaderLength
        self.totalLengthBeyondBuffer = totalLengthBeyondBuffer
        self.extensionHeaderTruncated = extensionHeaderTruncated
        self.extensionChainTooLong = extensionChainTooLong
        self.badDataOffset = badDataOffset
        self.truncatedL4 = truncatedL4
        self.badUDPLength = badUDPLength
    }

    /// Counts one dropped datagram under its reason: one increment, on the drop path only.
    @inline(__always)
    package mutating func count(_ error: PacketParseError) {
        switch error {
        case .tooShort: tooShort &+= 1
        case .unsupportedVersion: unsupportedVersion &+= 1
        case .badHeaderLength: badHeaderLength &+= 1
        case .totalLengthBeyondBuffer: totalLengthBeyondBuffer &+= 1
        case .extensionHeaderTruncated: extensionHeaderTruncated &+= 1
        case .extensionChainTooLong: extensionChainTooLong &+= 1
        case .badDataOffset: badDataOffset &+= 1
        case .truncatedL4: truncatedL4 &+= 1
        case .badUDPLength: badUDPLength &+= 1
        }
    }

    /// Every datagram dropped unparseable, whatever the reason.
    package var total: UInt64 {
        tooShort &+ unsupportedVersion &+ badHeaderLength &+ totalLengthBeyondBuffer &+ extensionHeaderTruncated
            &+ extensionChainTooLong &+ badDataOffset &+ truncatedL4 &+ badUDPLength
    }

    /// Nothing dropped yet.
    package static let zero = ParseDropStats()
}
