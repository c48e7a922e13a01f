/// Walks the blocks of a pcapng file held in memory, one block a step, keeping what the sections
/// said so far (byte order, interfaces). Every length is checked against the bytes there before it
/// is used, and nothing is allocated for a packet: it is handed out as a range of the file.
package struct PcapngWalker: Sendable {
    /// The current section was written in the other byte order.
    package private(set) var isByteSwapped = false
    /// The current section's interfaces, by id.
    package private(set) var interfaces: [PcapngInterface] = []
    /// Sections begun so far.
    package private(set) var sections = 0

    package init() {}

    /// A packet block's packet: where its bytes lie in the file and what its interface says.
    package struct Packet: Sendable, Hashable {
        package let interface: Int
        package let dataOffset: Int
        package let capturedLength: Int
        package let originalLength: Int
        /// The interface's ticks, or nil for a Simple Packet Block (which has no timestamp).
        package let ticks: UInt64?
    }

    /// What one block was.
    package enum Block: Sendable, Hashable {
        case packet(Packet)
        /// A section header, an interface description, or a block skipped by its length (name
        /// resolution, statistics, decryption secrets, custom, or a type not yet defined).
        case other(type: UInt32)
    }

    /// Reads the block at `offset` of `file`, returns it and where the next one starts.
    package mutating func step(in file: UnsafeRawBufferPointer, at offset: Int) throws(PcapngDamage) -> (block: Block, next: Int) {
        let available = file.count - offset
        guard available >= 8 else { throw .cutShort(length: PcapngBlock.framingLength.asUInt32, available: available) }
        let type = rawWord(file, offset)
        if type == PcapngBlock.sectionHeader {
            try beginSection(file, at: offset)
        } else if sections == 0 {
            throw .outsideASection(blockType: type)
        }
        let swapped = isByteSwapped
        func word(_ at: Int) -> UInt32 { let raw = rawWord(file, offset + at); return swapped ? raw.byteSwapped : raw }
        let typeInOrder = word(0)
        let length = word(4)
        guard length >= PcapngBlock.framingLength.asUInt32, length % 4 == 0 else {
            throw .impossibleLength(blockType: typeInOrder, length: length)
        }
        guard Int(length) <= available else { throw .cutShort(length: length, available: available) }
        let trailing = word(Int(length) - 4)
        guard trailing == length else { throw .lengthsDisagree(leading: length, trailing: trailing) }
        let next = offset + Int(length)
        func atLeast(_ minimum: Int) throws(PcapngDamage) {
            guard Int(length) >= minimum else { throw .impossibleLength(blockType: typeInOrder, length: length) }
        }
        switch typeInOrder {
        case PcapngBlock.sectionHeader:
            return (.other(type: typeInOrder), next)
        case PcapngBlock.interfaceDescription:
            try atLeast(PcapngBlock.interfaceDescriptionMinimumLength)
            interfaces.append(try describeInterface(file, at: offset, length: Int(length)))
            return (.other(type: typeInOrder), next)
        case PcapngBlock.enhancedPacket, PcapngBlock.obsoletePacket:
            // Both: the interface at 8 (4 bytes in an EPB, 2 in the obsolete block), then the
            // timestamp's high and low words, captured and original lengths, the data at 28.
            try atLeast(PcapngBlock.enhancedPacketMinimumLength)
            let interface = typeInOrder == PcapngBlock.enhancedPacket ? word(8) : UInt32(halfWord(file, offset + 8))
            guard Int(interface) < interfaces.count else {
                throw .unknownInterface(id: interface, described: interfaces.count)
            }
            let captured = word(20)
            let room = Int(length) - PcapngBlock.enhancedPacketMinimumLength
            guard Int(captured) <= room else { throw .capturedBeyondBlock(captured: captured, room: room) }
            let ticks = UInt64(word(12)) << 32 | UInt64(word(16))
            return (.packet(Packet(interface: Int(interface), dataOffset: offset + 28, capturedLength: Int(captured),
                                   originalLength: max(Int(captured), Int(word(24))), ticks: ticks)), next)
        case PcapngBlock.simplePacket:
            try atLeast(PcapngBlock.simplePacketMinimumLength)
            guard let first = interfaces.first else { throw .unknownInterface(id: 0, described: 0) }
            // No captured length of its own: the original one, cut by the snaplen and the block.
            let original = Int(word(8))
            var captured = min(original, Int(length) - PcapngBlock.simplePacketMinimumLength)
            if first.snaplen != 0 { captured = min(captured, Int(first.snaplen)) }
            return (.packet(Packet(interface: 0, dataOffset: offset + 12, capturedLength: captured,
                                   originalLength: original, ticks: nil)), next)
        default:
            return (.other(type: typeInOrder), next)
        }
    }

    /// A Section Header Block: its byte order first (the lengths are written in it), then its
    /// version. The new section describes its interfaces afresh.
    private mutating func beginSection(_ file: UnsafeRawBufferPointer, at offset: Int) throws(PcapngDamage) {
        let available = file.count - offset
        guard available >= PcapngBlock.sectionHeaderMinimumLength else {
            throw .cutShort(length: PcapngBlock.sectionHeaderMinimumLength.asUInt32, available: available)
        }
        let magic = rawWord(file, offset + 8)
        switch magic {
        case PcapngBlock.byteOrderMagic: isByteSwapped = false
        case PcapngBlock.byteOrderMagic.byteSwapped: isByteSwapped = true
        default: throw .unknownByteOrder(magic)
        }
        let swapped = isByteSwapped
        func half(_ at: Int) -> UInt16 { let raw = halfWordRaw(file, offset + at); return swapped ? raw.byteSwapped : raw }
        let length = swapped ? rawWord(file, offset + 4).byteSwapped : rawWord(file, offset + 4)
        guard length >= PcapngBlock.sectionHeaderMinimumLength.asUInt32 else {
            throw .impossibleLength(blockType: PcapngBlock.sectionHeader, length: length)
        }
        let (major, minor) = (half(12), half(14))
        guard major == PcapngBlock.supportedMajorVersion else { throw .unsupportedVersion(major: major, minor: minor) }
        interfaces = []
        sections += 1
    }

    /// An IDB: link type at 8 (16 bits), snaplen at 12, options from 16 to the trailing length.
    private func describeInterface(_ file: UnsafeRawBufferPointer, at offset: Int, length: Int) throws(PcapngDamage) -> PcapngInterface {
        let swapped = isByteSwapped
        func word(_ at: Int) -> UInt32 { let raw = rawWord(file, at); return swapped ? raw.byteSwapped : raw }
        func half(_ at: Int) -> UInt16 { let raw = halfWordRaw(file, at); return swapped ? raw.byteSwapped : raw }
        let linkType = UInt32(half(offset + 8))
        let snaplen = word(offset + 12)
        var resolution = PcapngTimestampResolution.decimal(PcapngBlock.defaultTimestampResolution)
        var offsetSeconds: Int64 = 0
        var option = offset + 16
        let end = offset + length - 4
        while end - option >= 4 {
            let code = half(option)
            let valueLength = Int(half(option + 2))
            guard code != PcapngBlock.optionEndOfOptions else { break }
            guard end - option - 4 >= valueLength else { throw .optionOverrun(code: code, length: UInt16(valueLength)) }
            let value = option + 4
            if code == PcapngBlock.optionTimestampResolution, valueLength >= 1 {
                let byte = file[value]
                guard let parsed = PcapngTimestampResolution(optionByte: byte) else { throw .impossibleTimestampResolution(byte) }
                resolution = parsed
            } else if code == PcapngBlock.optionTimestampOffset, valueLength >= 8 {
                let raw = file.loadUnaligned(fromByteOffset: value, as: UInt64.self).littleEndianToHostOrder
                offsetSeconds = Int64(bitPattern: swapped ? raw.byteSwapped : raw)
            }
            option = value + ((valueLength + 3) & ~3)
        }
        return PcapngInterface(linkType: linkType, snaplen: snaplen, timestampResolution: resolution,
                               timestampOffsetSeconds: offsetSeconds)
    }

    /// Four bytes as written in a little-endian file.
    private func rawWord(_ file: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
        file.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndianToHost
    }

    private func halfWordRaw(_ file: UnsafeRawBufferPointer, _ at: Int) -> UInt16 {
        UInt16(littleEndian: file.loadUnaligned(fromByteOffset: at, as: UInt16.self))
    }

    /// The obsolete Packet Block's 16-bit interface id, in the section's byte order.
    private func halfWord(_ file: UnsafeRawBufferPointer, _ at: Int) -> UInt16 {
        let raw = halfWordRaw(file, at)
        return isByteSwapped ? raw.byteSwapped : raw
    }
}

private extension Int {
    var asUInt32: UInt32 { UInt32(self) }
}

private extension UInt64 {
    var littleEndianToHostOrder: UInt64 { UInt64(littleEndian: self) }
}
