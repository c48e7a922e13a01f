/// pcapng (draft-ietf-opsawg-pcapng), written only for exports: classic pcap stays the live
/// capture format, and pcapng is used where per-packet options (a comment, the direction) matter.
/// Little-endian; append-only: each block is emitted whole into the caller's buffer.
///
///   block:   type u32 · total length u32 · body (32-bit aligned) · total length u32 (= body + 12)
///   SHB §4.1 type 0x0A0D0D0A: byte-order magic 0x1A2B3C4D · major 1 · minor 0 · section length
///            i64 −1 (unspecified: streamed) · options (shb_userappl = 4)
///   IDB §4.2 type 1: link type u16 · reserved u16 · snaplen u32 · options (if_tsresol = 9)
///   EPB §4.3 type 6: interface u32 · ts high u32 · ts low u32 · captured u32 · original u32 ·
///            data padded to 4 · options (opt_comment = 1, epb_flags = 2)
///   option §3.5: code u16 · length u16 (unpadded) · value padded to 4; the list ends with
///            opt_endofopt (0, 0), written only when some option was.
package enum PcapngFormat {
    // The block types, magic and option codes the reader knows too: one truth (`PcapngBlock`).
    static let sectionHeaderType = PcapngBlock.sectionHeader
    package static let byteOrderMagic = PcapngBlock.byteOrderMagic
    static let interfaceDescriptionType = PcapngBlock.interfaceDescription
    static let enhancedPacketType = PcapngBlock.enhancedPacket
    static let versionMajor = PcapngBlock.supportedMajorVersion
    static let versionMinor: UInt16 = 0

    static let optionEnd = PcapngBlock.optionEndOfOptions
    package static let optionComment: UInt16 = 1
    static let optionApplication: UInt16 = 4
    package static let optionTimestampResolution = PcapngBlock.optionTimestampResolution
    static let optionPacketFlags: UInt16 = 2
    /// if_tsresol 6: timestamps count microseconds, as our pcap records do.
    static let microsecondResolution = PcapngBlock.defaultTimestampResolution

    /// epb_flags' low two bits (§4.3.1): the direction as seen from the device.
    package static func packetFlags(_ direction: Direction) -> UInt32 {
        direction == .inbound ? 0b01 : 0b10
    }

    package enum FormatError: Error, Sendable, Hashable, CustomStringConvertible {
        /// An option value longer than its u16 length can say.
        case optionTooLong(code: UInt16, byteCount: Int)
        /// A packet longer than its u32 length can say.
        case packetTooLong(byteCount: Int)

        package var description: String {
            switch self {
            case let .optionTooLong(code, count): "pcapng option \(code) of \(count) bytes is longer than 65 535"
            case let .packetTooLong(count): "a packet of \(count) bytes is too long for pcapng"
            }
        }
    }

    package struct Option: Sendable, Hashable {
        package let code: UInt16
        package let value: [UInt8]

        package init(code: UInt16, value: [UInt8]) {
            self.code = code
            self.value = value
        }

        package static func comment(_ text: String) -> Option { Option(code: optionComment, value: Array(text.utf8)) }
        package static func flags(_ direction: Direction) -> Option {
            Option(code: optionPacketFlags, value: littleEndianBytes(packetFlags(direction)))
        }
    }

    /// The Section Header Block, naming the exporting application when given.
    package static func appendSectionHeader(application: String?, to out: inout [UInt8]) throws(FormatError) {
        try appendBlock(type: sectionHeaderType, options: application.map { [Option(code: optionApplication, value: Array($0.utf8))] } ?? [],
                        to: &out) { body in
            appendLittleEndian(byteOrderMagic, to: &body)
            appendLittleEndian(versionMajor, to: &body)
            appendLittleEndian(versionMinor, to: &body)
            appendLittleEndian(UInt64.max, to: &body)
        }
    }

    /// The Interface Description Block of interface 0; `snaplen` 0 means no limit.
    package static func appendInterfaceDescription(linkType: UInt16 = UInt16(PcapFormat.linkTypeRaw), snaplen: UInt32,
                                                  to out: inout [UInt8]) {
        // One 1-byte option: it cannot be too long.
        try? appendBlock(type: interfaceDescriptionType,
                         options: [Option(code: optionTimestampResolution, value: [microsecondResolution])], to: &out) { body in
            appendLittleEndian(linkType, to: &body)
            appendLittleEndian(UInt16(0), to: &body)
            appendLittleEndian(snaplen, to: &body)
        }
    }

    /// One Enhanced Packet Block on interface 0: `data` as captured, of `originalLength` on the wire.
    package static func appendEnhancedPacket(_ data: some Collection<UInt8>, originalLength: Int, microsecondsSince1970: UInt64,
                                            options: [Option], to out: inout [UInt8]) throws(FormatError) {
        guard let captured = UInt32(exactly: data.count), data.count <= Int(UInt32.max) - 64 else {
            throw .packetTooLong(byteCount: data.count)
        }
        guard let original = UInt32(exactly: max(originalLength, data.count)) else { throw .packetTooLong(byteCount: originalLength) }
        try appendBlock(type: enhancedPacketType, options: options, to: &out) { body in
            appendLittleEndian(UInt32(0), to: &body)
            appendLittleEndian(UInt32(truncatingIfNeeded: microsecondsSince1970 >> 32), to: &body)
            appendLittleEndian(UInt32(truncatingIfNeeded: microsecondsSince1970), to: &body)
            appendLittleEndian(captured, to: &body)
            appendLittleEndian(original, to: &body)
            body += data
            body += repeatElement(0, count: padding(data.count))
        }
    }

    /// Zero bytes that bring `count` to a multiple of 4.
    package static func padding(_ count: Int) -> Int { (4 - count % 4) % 4 }

    /// A block: its fixed fields from `fields`, then `options`, framed by the two total lengths.
    private static func appendBlock(type: UInt32, options: [Option], to out: inout [UInt8],
                                    fields: (inout [UInt8]) -> Void) throws(FormatError) {
        for option in options where option.value.count > Int(UInt16.max) {
            throw .optionTooLong(code: option.code, byteCount: option.value.count)
        }
        let start = out.count
        appendLittleEndian(type, to: &out)
        out += littleEndianBytes(UInt32(0))   // fixed up below
        fields(&out)
        for option in options {
            appendLittleEndian(option.code, to: &out)
            appendLittleEndian(UInt16(option.value.count), to: &out)
            out += option.value
            out += repeatElement(0, count: padding(option.value.count))
        }
        if !options.isEmpty { out += [0, 0, 0, 0] }
        let total = UInt32(out.count - start + 4)
        out.replaceSubrange(start + 4..<start + 8, with: littleEndianBytes(total))
        appendLittleEndian(total, to: &out)
    }

    static func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    static func littleEndianBytes<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}
