/// Classic libpcap framing: a 24-byte global header, then per packet a 16-byte record header and
/// the bytes. The one truth for both the writer and every reader.
///
///   global header: 0 magic · 4 major (2) · 6 minor (4) · 8 thiszone · 12 sigfigs · 16 snaplen · 20 network
///   record header: 0 ts_sec · 4 ts_usec (ts_nsec) · 8 incl_len · 12 orig_len
package enum PcapFormat {
    package static let globalHeaderLength = 24
    package static let recordHeaderLength = 16
    /// Microsecond timestamps, written in the writer's (little-endian) byte order: `d4 c3 b2 a1`.
    package static let magicMicroseconds: UInt32 = 0xA1B2_C3D4
    /// Nanosecond timestamps (written by other tools; read, never written).
    package static let magicNanoseconds: UInt32 = 0xA1B2_3C4D
    package static let versionMajor: UInt16 = 2
    package static let versionMinor: UInt16 = 4
    /// LINKTYPE_RAW: each record is a bare IP datagram.
    package static let linkTypeRaw: UInt32 = 101
    /// LINKTYPE_IPV4 / LINKTYPE_IPV6: bare datagrams of one family, which other tools also write.
    static let linkTypeIPv4: UInt32 = 228
    static let linkTypeIPv6: UInt32 = 229

    package enum FormatError: Error, Sendable, Hashable, CustomStringConvertible {
        case shortHeader(expected: Int, actual: Int)
        case unknownMagic(UInt32)
        case unsupportedLinkType(UInt32)
        /// A pcapng file none of whose first section's interfaces has a link type read here (the
        /// link types, by interface).
        case unreadablePcapngInterfaces([UInt32])

        /// The first four bytes of a pcapng file (its Section Header Block type).
        static let pcapngMagic: UInt32 = PcapngBlock.sectionHeader

        package var description: String {
            switch self {
            case let .shortHeader(expected, actual): "header needs \(expected) bytes, the file has \(actual)"
            case .unknownMagic(Self.pcapngMagic): "a pcapng file where only classic pcap files are written"
            case let .unknownMagic(magic): "not a pcap or pcapng file (it begins 0x\(String(magic, radix: 16)))"
            case let .unsupportedLinkType(linkType):
                "a pcap file of \(LinkTypeName.describe(linkType)), which this program does not unwrap to IP; "
                    + "keep the IP packets Wireshark finds in it with: \(LinkTypeName.conversion)"
            case let .unreadablePcapngInterfaces(linkTypes):
                "a pcapng file whose "
                    + linkTypes.enumerated().map { "interface \($0.offset) is \(LinkTypeName.describe($0.element))" }
                        .joined(separator: ", ")
                    + ", which this program does not unwrap to IP; keep the IP packets Wireshark finds in it with: "
                    + LinkTypeName.conversion
            }
        }
    }

    /// Which files a parse accepts.
    package enum Acceptance: Sendable {
        /// Exactly what the writer writes: native little-endian, microseconds, LINKTYPE_RAW.
        /// Anything else in our own capture directory is corruption, not a variant.
        case ours
        /// Any capture of bare IP datagrams, in either byte order and either precision.
        case anyRawIP
        /// As `anyRawIP`, and also the link layers `LinkLayer` unwraps (Ethernet, Linux cooked,
        /// BSD loopback, PPP), in classic pcap or pcapng.
        case anyLinkLayer

        /// Whether records of `linkType` are read.
        package func accepts(linkType: UInt32) -> Bool {
            switch self {
            case .ours: linkType == linkTypeRaw
            case .anyRawIP: LinkLayer(linkType: linkType) == .rawIP
            case .anyLinkLayer: LinkLayer(linkType: linkType) != nil
            }
        }
    }

    package struct GlobalHeader: Sendable, Hashable {
        package var snaplen: UInt32
        package var linkType: UInt32
        /// The file was written in the other byte order.
        package var isByteSwapped: Bool
        package var hasNanosecondTimestamps: Bool

        package init(snaplen: UInt32, linkType: UInt32 = PcapFormat.linkTypeRaw,
                    isByteSwapped: Bool = false, hasNanosecondTimestamps: Bool = false) {
            self.snaplen = snaplen
            self.linkType = linkType
            self.isByteSwapped = isByteSwapped
            self.hasNanosecondTimestamps = hasNanosecondTimestamps
        }

        package init(parsing bytes: UnsafeRawBufferPointer, accepting acceptance: Acceptance = .ours) throws(FormatError) {
            guard bytes.count >= globalHeaderLength else {
                throw .shortHeader(expected: globalHeaderLength, actual: bytes.count)
            }
            let magic = bytes.loadUnaligned(as: UInt32.self).littleEndianToHost
            switch (magic, acceptance) {
            case (magicMicroseconds, _): (isByteSwapped, hasNanosecondTimestamps) = (false, false)
            case (magicNanoseconds, .anyRawIP), (magicNanoseconds, .anyLinkLayer):
                (isByteSwapped, hasNanosecondTimestamps) = (false, true)
            case (magicMicroseconds.byteSwapped, .anyRawIP), (magicMicroseconds.byteSwapped, .anyLinkLayer):
                (isByteSwapped, hasNanosecondTimestamps) = (true, false)
            case (magicNanoseconds.byteSwapped, .anyRawIP), (magicNanoseconds.byteSwapped, .anyLinkLayer):
                (isByteSwapped, hasNanosecondTimestamps) = (true, true)
            default: throw .unknownMagic(magic)
            }
            let swapped = isByteSwapped
            func field(_ offset: Int) -> UInt32 {
                let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndianToHost
                return swapped ? raw.byteSwapped : raw
            }
            snaplen = field(16)
            linkType = field(20)
            guard acceptance.accepts(linkType: linkType) else { throw .unsupportedLinkType(linkType) }
        }

        /// The 24 bytes, as the writer writes them (native little-endian, microseconds).
        package func emit(into output: UnsafeMutableRawBufferPointer) {
            precondition(output.count >= globalHeaderLength)
            output.storeBytes(of: magicMicroseconds.littleEndian, toByteOffset: 0, as: UInt32.self)
            output.storeBytes(of: versionMajor.littleEndian, toByteOffset: 4, as: UInt16.self)
            output.storeBytes(of: versionMinor.littleEndian, toByteOffset: 6, as: UInt16.self)
            output.storeBytes(of: Int32(0).littleEndian, toByteOffset: 8, as: Int32.self)
            output.storeBytes(of: UInt32(0).littleEndian, toByteOffset: 12, as: UInt32.self)
            output.storeBytes(of: snaplen.littleEndian, toByteOffset: 16, as: UInt32.self)
            output.storeBytes(of: linkType.littleEndian, toByteOffset: 20, as: UInt32.self)
        }
    }

    package struct RecordHeader: Sendable, Hashable {
        package var tsSec: UInt32
        /// Microseconds, or nanoseconds in a nanosecond file.
        package var tsFraction: UInt32
        package var inclLen: UInt32
        package var origLen: UInt32

        package init(tsSec: UInt32, tsFraction: UInt32, inclLen: UInt32, origLen: UInt32) {
            self.tsSec = tsSec
            self.tsFraction = tsFraction
            self.inclLen = inclLen
            self.origLen = origLen
        }

        /// The header of a record stamped at `nanosecondsSince1970` (wall clock). Instants before
        /// 1970 clamp to 0 rather than wrap to 2106.
        package init(nanosecondsSince1970: Int64, inclLen: UInt32, origLen: UInt32) {
            let clamped = max(0, nanosecondsSince1970)
            self.init(tsSec: UInt32(clamping: clamped / 1_000_000_000),
                      tsFraction: UInt32((clamped % 1_000_000_000) / 1_000),
                      inclLen: inclLen, origLen: origLen)
        }

        /// Parses 16 bytes; the caller, who knows the file's snaplen, bounds `inclLen`.
        package init(parsing bytes: UnsafeRawBufferPointer, byteSwapped: Bool = false) throws(FormatError) {
            guard bytes.count >= recordHeaderLength else {
                throw .shortHeader(expected: recordHeaderLength, actual: bytes.count)
            }
            func field(_ offset: Int) -> UInt32 {
                let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndianToHost
                return byteSwapped ? raw.byteSwapped : raw
            }
            self.init(tsSec: field(0), tsFraction: field(4), inclLen: field(8), origLen: field(12))
        }

        package func emit(into output: UnsafeMutableRawBufferPointer) {
            precondition(output.count >= recordHeaderLength)
            output.storeBytes(of: tsSec.littleEndian, toByteOffset: 0, as: UInt32.self)
            output.storeBytes(of: tsFraction.littleEndian, toByteOffset: 4, as: UInt32.self)
            output.storeBytes(of: inclLen.littleEndian, toByteOffset: 8, as: UInt32.self)
            output.storeBytes(of: origLen.littleEndian, toByteOffset: 12, as: UInt32.self)
        }

        /// The record's instant in nanoseconds since 1970.
        package func nanosecondsSince1970(nanosecondTimestamps: Bool) -> Int64 {
            Int64(tsSec) * 1_000_000_000 + Int64(tsFraction) * (nanosecondTimestamps ? 1 : 1_000)
        }
    }
}

extension UInt32 {
    /// The value of four bytes loaded from a little-endian file.
    var littleEndianToHost: UInt32 { UInt32(littleEndian: self) }
}
