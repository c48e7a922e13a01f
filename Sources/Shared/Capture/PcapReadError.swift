#if canImport(Glibc)
import Glibc
#endif

/// Why a capture record could not be read back. A corrupt or missing file is reported, never
/// repaired or overwritten.
package enum PcapReadError: Error, Sendable, Hashable {
    /// No capture file with this sequence (deleted by retention, or never written).
    case fileNotFound(sequence: UInt32)
    /// The file exists but could not be opened or read (`errno`).
    case unreadable(path: String, errno: Int32)
    /// A directory, pipe or device: captures are mapped, so they are read from regular files.
    case notARegularFile(path: String)
    /// The file's global header is short, foreign or of another link type.
    case format(PcapFormat.FormatError)
    /// The offset points inside the 24-byte global header, where no record can start.
    case offsetInsideGlobalHeader(offset: UInt64)
    /// The offset is at or past the end of the file.
    case offsetPastEnd(offset: UInt64, fileSize: UInt64)
    /// The record header or its data runs past the end of the file.
    case recordCutShort(offset: UInt64, expected: UInt64, available: UInt64)
    /// `incl_len` is more than the file's snaplen allows: corruption, refused before allocating.
    case inclLenExceedsSnaplen(offset: UInt64, inclLen: UInt32, snaplen: UInt32)
    /// A pcapng block at `offset` is damaged.
    case damagedBlock(offset: UInt64, PcapngDamage)
}

extension PcapReadError: CustomStringConvertible {
    package var description: String {
        switch self {
        case let .fileNotFound(sequence): "no capture file with sequence \(sequence)"
        case let .unreadable(path, code): "cannot read \(path): \(SystemError.text(code))"
        case let .notARegularFile(path): "\(path) is not a regular file (save the capture to a file first)"
        case let .format(error): "not a capture this program reads: \(error)"
        case let .offsetInsideGlobalHeader(offset): "offset \(offset) is inside the file's global header"
        case let .offsetPastEnd(offset, size): "offset \(offset) is past the end of the file (\(size) bytes)"
        case let .recordCutShort(offset, expected, available):
            "record at offset \(offset) needs \(expected) bytes, the file has \(available) left"
        case let .inclLenExceedsSnaplen(offset, inclLen, snaplen):
            "record at offset \(offset) claims \(inclLen) bytes, more than the snaplen \(snaplen)"
        case let .damagedBlock(offset, damage): "block at offset \(offset): \(damage)"
        }
    }
}
