#if canImport(Glibc)
import Glibc
#endif

/// A part of the recording — the capture or the history — that stopped on a write failure while
/// the tunnel kept forwarding: what the person is told once, at that moment, and what the summary
/// repeats. Pure: the pipeline and the history writer make it, the command renders it.
package struct RecordingStop: Sendable, Hashable {
    package enum Part: String, Sendable, Hashable {
        case capture
        case history
        /// Decrypted content kept on disk (its chunks are counted, not packets).
        case plaintext = "decrypted content"

        /// What this part records, counted in the sentences.
        var unit: String { self == .plaintext ? "chunk" : "packet" }
    }

    package let part: Part
    /// Packets this part had recorded when it stopped (captured, or written to the history).
    package let packetsRecorded: UInt64
    /// The failure was a full disk (ENOSPC, EDQUOT, SQLITE_FULL), not a broken one.
    package let diskFull: Bool
    /// The failure as its error says it.
    package let reason: String

    package init(part: Part, packetsRecorded: UInt64, diskFull: Bool, reason: String) {
        self.part = part
        self.packetsRecorded = packetsRecorded
        self.diskFull = diskFull
        self.reason = reason
    }

    package init(capture error: PcapError, packetsCaptured: UInt64) {
        self.init(part: .capture, packetsRecorded: packetsCaptured, diskFull: error.meansDiskFull,
                  reason: error.description)
    }

    package init(history error: StoreError, packetsWritten: UInt64) {
        self.init(part: .history, packetsRecorded: packetsWritten, diskFull: error.meansDiskFull,
                  reason: error.description)
    }

    package init(plaintext error: PlaintextWriteError, chunksWritten: UInt64) {
        self.init(part: .plaintext, packetsRecorded: chunksWritten, diskFull: error.meansDiskFull,
                  reason: error.description)
    }

    /// One sentence for standard error: "the disk holding /x is full: capture stopped after 2 731
    /// packets; the tunnel keeps forwarding".
    package func sentence(dataDirectory: String) -> String {
        let stopped = "\(part.rawValue) stopped after \(packetsRecorded) \(part.unit)\(packetsRecorded == 1 ? "" : "s")"
        let cause = diskFull ? "the disk holding \(dataDirectory) is full: \(stopped)" : "\(stopped): \(reason)"
        return cause + "; the tunnel keeps forwarding"
    }

    /// The same for the summary, once the tunnel stopped: "capture stopped after 2 731 packets:
    /// the disk was full".
    package var summary: String {
        "\(part.rawValue) stopped after \(packetsRecorded) \(part.unit)\(packetsRecorded == 1 ? "" : "s"): "
            + (diskFull ? "the disk was full" : reason)
    }
}

extension PcapError {
    /// The file system has no room (or no quota) left, as opposed to failing.
    package var meansDiskFull: Bool {
        switch self {
        case let .openFailed(_, code), let .writeFailed(_, code): code == ENOSPC || code == EDQUOT
        case .sequenceExhausted, .closed: false
        }
    }
}

extension PlaintextWriteError {
    /// The file system has no room (or no quota) left, as opposed to failing.
    package var meansDiskFull: Bool {
        switch self {
        case let .openFailed(_, code), let .writeFailed(_, code): code == ENOSPC || code == EDQUOT
        case .sequenceExhausted, .closed: false
        }
    }
}

extension StoreError {
    /// SQLite said the disk is full (`SQLITE_FULL`).
    package var meansDiskFull: Bool {
        if case .diskFull = self { return true }
        return false
    }
}
