/// Why `capture.pcapng` was not written. In every case the partial file is removed.
package enum EvidenceCaptureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A packet of a flow the bundle does not list: the history changed, or the caller read
    /// another session's packets. Refused before anything of it is written.
    case flowNotInBundle(id: Int64)
    /// The capture file could not be created where it was asked for (the system's words).
    case destinationUnavailable(String)
    /// The capture file could not be written (the system's words): a full disk, say.
    case writeFailed(String)

    package var description: String {
        switch self {
        case let .flowNotInBundle(id): "a packet of the capture belongs to flow \(id), which the bundle does not list"
        case let .destinationUnavailable(reason): "the capture file could not be created: \(reason)"
        case let .writeFailed(reason): "the capture file could not be written: \(reason)"
        }
    }
}
