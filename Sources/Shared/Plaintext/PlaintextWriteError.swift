/// Why the decrypted-content writer could not do what it was asked. Each stops keeping decrypted
/// content, never the tunnel: the pipeline stops recording it, counts it and says so.
package enum PlaintextWriteError: Error, Sendable, Hashable {
    /// The directory or a new file could not be opened or created (`errno`).
    case openFailed(path: String, errno: Int32)
    /// Bytes could not be written or synced (`errno`; ENOSPC is a full disk).
    case writeFailed(path: String, errno: Int32)
    /// Every file sequence up to UInt32.max is taken; sequences are never reused.
    case sequenceExhausted
    /// The writer was closed, or broke on an earlier failure.
    case closed
}

extension PlaintextWriteError: CustomStringConvertible {
    package var description: String {
        switch self {
        case let .openFailed(path, code): "cannot create decrypted-content file \(path): \(SystemError.text(openingWithoutFollowing: code))"
        case let .writeFailed(path, code): "cannot write decrypted-content file \(path): \(SystemError.text(code))"
        case .sequenceExhausted: "every decrypted-content file sequence number is used"
        case .closed: "the decrypted-content writer is closed"
        }
    }
}
