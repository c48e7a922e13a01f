/// Why the capture writer could not do what it was asked. Each stops capture, never the tunnel:
/// the caller turns capture off, counts it and tells the person (a full disk among them).
package enum PcapError: Error, Sendable, Hashable {
    /// The directory or a new file could not be opened or created (`errno`).
    case openFailed(path: String, errno: Int32)
    /// Bytes could not be written or synced (`errno`; ENOSPC is a full disk). Records whose
    /// locations were returned since the last successful flush may be missing; they read back as
    /// `PcapReadError.offsetPastEnd` or `.recordCutShort`, never as other bytes.
    case writeFailed(path: String, errno: Int32)
    /// Every file sequence up to UInt32.max is taken; sequences are never reused.
    case sequenceExhausted
    /// The writer was closed, or broke on an earlier failure.
    case closed
}

extension PcapError: CustomStringConvertible {
    package var description: String {
        switch self {
        case let .openFailed(path, code): "cannot create capture file \(path): \(SystemError.text(openingWithoutFollowing: code))"
        case let .writeFailed(path, code): "cannot write capture file \(path): \(SystemError.text(code))"
        case .sequenceExhausted: "every capture file sequence number is used"
        case .closed: "the capture writer is closed"
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
