import CTunnelVision

/// The shape of a ring file and the rules it must follow (ipc spec): a 64-byte header, then
/// `slotCount` slots of `slotSize` bytes. Pure: validation reads only the header's bytes.
package struct RingGeometry: Sendable, Hashable {
    package static let magic: UInt32 = 0x5456_5231   // "TVR1"
    package static let version: UInt32 = 1
    package static let headerByteCount = Int(CTV_RING_HEADER_SIZE)
    /// A ring is live metadata, not history: a gigabyte is already millions of packets.
    static let maximumFileByteCount = 1 << 30
    /// The default for the tunnel: 2^16 records of 64 bytes, 4 MiB, about a second of a busy link.
    package static let defaultSlotCount = 1 << 16

    package let slotSize: Int
    package let slotCount: Int

    /// A geometry the producer may create: a power-of-two count, slots that hold a record and keep
    /// 8-byte alignment, and a file that fits the ceiling.
    package init(slotCount: Int, slotSize: Int = PackedPacketMeta.packedByteCount) throws(IPCError) {
        guard slotCount > 0, slotCount & (slotCount - 1) == 0 else {
            throw .badGeometry("slot count \(slotCount) is not a power of two")
        }
        guard slotSize >= PackedPacketMeta.packedByteCount, slotSize % 8 == 0 else {
            throw .badGeometry("slot size \(slotSize) must be a multiple of 8 and at least \(PackedPacketMeta.packedByteCount)")
        }
        guard slotCount <= (Self.maximumFileByteCount - Self.headerByteCount) / slotSize else {
            throw .badGeometry("\(slotCount) slots of \(slotSize) bytes exceed \(Self.maximumFileByteCount) bytes")
        }
        self.slotCount = slotCount
        self.slotSize = slotSize
    }

    package var fileByteCount: Int { Self.headerByteCount + slotCount * slotSize }

    /// The geometry a mapped header declares, or the reason it is not a ring of ours.
    /// `fileByteCount` is the file's real size, which must match exactly.
    static func read(header: UnsafeRawPointer, fileByteCount: Int) -> Result<RingGeometry, RingHeaderProblem> {
        guard fileByteCount >= headerByteCount else { return .failure(.shorterThanHeader(fileByteCount)) }
        let magic = UInt32(littleEndian: header.loadUnaligned(fromByteOffset: Int(CTV_RING_OFFSET_MAGIC), as: UInt32.self))
        guard magic == Self.magic else { return .failure(.magic(magic)) }
        let version = UInt32(littleEndian: header.loadUnaligned(fromByteOffset: Int(CTV_RING_OFFSET_VERSION), as: UInt32.self))
        guard version == Self.version else { return .failure(.version(version)) }
        let slotSize = UInt32(littleEndian: header.loadUnaligned(fromByteOffset: Int(CTV_RING_OFFSET_SLOT_SIZE), as: UInt32.self))
        let slotCount = UInt32(littleEndian: header.loadUnaligned(fromByteOffset: Int(CTV_RING_OFFSET_SLOT_COUNT), as: UInt32.self))
        guard let geometry = try? RingGeometry(slotCount: Int(slotCount), slotSize: Int(slotSize)) else {
            return .failure(.geometry(slotCount: slotCount, slotSize: slotSize))
        }
        guard geometry.fileByteCount == fileByteCount else {
            return .failure(.size(expected: geometry.fileByteCount, actual: fileByteCount))
        }
        return .success(geometry)
    }

    /// Writes the constant part of a fresh header (the atomics start at zero in a new file).
    func writeHeader(to header: UnsafeMutableRawPointer) {
        header.storeBytes(of: UInt32(slotSize).littleEndian, toByteOffset: Int(CTV_RING_OFFSET_SLOT_SIZE), as: UInt32.self)
        header.storeBytes(of: UInt32(slotCount).littleEndian, toByteOffset: Int(CTV_RING_OFFSET_SLOT_COUNT), as: UInt32.self)
        header.storeBytes(of: Self.version.littleEndian, toByteOffset: Int(CTV_RING_OFFSET_VERSION), as: UInt32.self)
        header.storeBytes(of: Self.magic.littleEndian, toByteOffset: Int(CTV_RING_OFFSET_MAGIC), as: UInt32.self)
    }
}

/// What is wrong with a header that is not ours.
enum RingHeaderProblem: Error, Sendable, Hashable, CustomStringConvertible {
    case shorterThanHeader(Int)
    case magic(UInt32)
    case version(UInt32)
    case geometry(slotCount: UInt32, slotSize: UInt32)
    case size(expected: Int, actual: Int)

    var description: String {
        switch self {
        case .shorterThanHeader(let size): "\(size) bytes is shorter than the 64-byte header"
        case .magic(let magic): "magic 0x\(String(magic, radix: 16)) is not \"TVR1\""
        case .version(let version): "version \(version) is not \(RingGeometry.version)"
        case .geometry(let count, let size): "\(count) slots of \(size) bytes is not a valid geometry"
        case .size(let expected, let actual): "the file has \(actual) bytes where its header needs \(expected)"
        }
    }
}

/// Where a ring file stands in the life of its session (header @48).
package enum RingFileState: UInt32, Sendable {
    /// Its producer is (or was, if it crashed) writing into it.
    case live = 0
    /// Its producer closed it: the session ended.
    case closed = 1
    /// A newer session's file has replaced it at the same path: drain it, then reattach.
    case superseded = 2
}
