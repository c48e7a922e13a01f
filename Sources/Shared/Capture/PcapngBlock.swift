/// pcapng framing (IETF draft-ietf-opsawg-pcapng): the file is a run of blocks, each
///   0 type · 4 total length · 8 body … · total length − 4: total length again,
/// lengths a multiple of 4 and counting the 12 bytes of framing. A Section Header Block opens each
/// section and fixes its byte order; the section's interfaces are numbered in the order their
/// Interface Description Blocks come. The one truth for the block types and option codes read here.
package enum PcapngBlock {
    /// Section Header Block; the same bytes in both byte orders (`0a 0d 0d 0a`).
    package static let sectionHeader: UInt32 = 0x0A0D_0D0A
    package static let interfaceDescription: UInt32 = 1
    /// The obsolete Packet Block (a 2-byte interface id and a drops count in front of an EPB's fields).
    package static let obsoletePacket: UInt32 = 2
    package static let simplePacket: UInt32 = 3
    package static let enhancedPacket: UInt32 = 6
    /// The SHB's byte-order magic, read in the writer's byte order.
    package static let byteOrderMagic: UInt32 = 0x1A2B_3C4D
    static let supportedMajorVersion: UInt16 = 1

    /// Type and two lengths.
    static let framingLength = 12
    /// SHB: framing, byte-order magic, versions and the 8-byte section length.
    static let sectionHeaderMinimumLength = 28
    /// IDB: framing, link type, reserved, snaplen.
    static let interfaceDescriptionMinimumLength = 20
    /// EPB: framing, interface id, timestamp (two words), captured and original lengths.
    static let enhancedPacketMinimumLength = 32
    /// Obsolete PB: framing, 2-byte interface id, 2-byte drops, timestamp, captured and original lengths.
    static let obsoletePacketMinimumLength = 32
    /// SPB: framing, original length.
    static let simplePacketMinimumLength = 16

    /// IDB options: `if_tsresol` (one byte: 10^-n, or 2^-n when the top bit is set) and
    /// `if_tsoffset` (seconds added to every timestamp).
    static let optionEndOfOptions: UInt16 = 0
    package static let optionTimestampResolution: UInt16 = 9
    static let optionTimestampOffset: UInt16 = 14

    /// Microseconds, when an interface names no resolution.
    static let defaultTimestampResolution: UInt8 = 6
}

/// How a pcapng block lies about itself. Each is damage at that block: the records before it were
/// read, nothing after it is trusted.
package enum PcapngDamage: Error, Sendable, Hashable, CustomStringConvertible {
    /// The block's length is under its 12 bytes of framing (or its type's minimum), or not a multiple of 4.
    case impossibleLength(blockType: UInt32, length: UInt32)
    /// The block runs past the end of the file.
    case cutShort(length: UInt32, available: Int)
    /// The length at the end of the block is not the one at its start.
    case lengthsDisagree(leading: UInt32, trailing: UInt32)
    /// The Section Header Block's byte-order magic is neither order of 0x1A2B3C4D.
    case unknownByteOrder(UInt32)
    /// A section of a major version this reader does not know.
    case unsupportedVersion(major: UInt16, minor: UInt16)
    /// A packet names an interface its section never described.
    case unknownInterface(id: UInt32, described: Int)
    /// A packet claims more captured bytes than its block holds.
    case capturedBeyondBlock(captured: UInt32, room: Int)
    /// A block before any Section Header Block.
    case outsideASection(blockType: UInt32)
    /// An option runs past the end of its block.
    case optionOverrun(code: UInt16, length: UInt16)
    /// `if_tsresol` finer than any clock (beyond 10^-19 or 2^-63).
    case impossibleTimestampResolution(UInt8)

    package var description: String {
        switch self {
        case let .impossibleLength(type, length): "block of type \(type) says it is \(length) bytes long, which is impossible"
        case let .cutShort(length, available): "block of \(length) bytes runs past the end of the file (\(available) bytes left)"
        case let .lengthsDisagree(leading, trailing): "block says \(leading) bytes at its start and \(trailing) at its end"
        case let .unknownByteOrder(magic): "section header's byte-order magic 0x\(String(magic, radix: 16)) is neither order of 0x1a2b3c4d"
        case let .unsupportedVersion(major, minor): "section of pcapng version \(major).\(minor); only version 1 is read"
        case let .unknownInterface(id, described): "packet of interface \(id), but the section describes \(described) interface\(described == 1 ? "" : "s")"
        case let .capturedBeyondBlock(captured, room): "packet claims \(captured) captured bytes, its block holds \(room)"
        case let .outsideASection(type): "block of type \(type) comes before any section header"
        case let .optionOverrun(code, length): "option \(code) of \(length) bytes runs past the end of its block"
        case let .impossibleTimestampResolution(value): "timestamp resolution 0x\(String(value, radix: 16)) is finer than any clock"
        }
    }
}
