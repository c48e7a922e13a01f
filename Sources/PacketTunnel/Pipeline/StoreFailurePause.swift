import Shared

/// When the history writer goes back to SQLite after the disk failed it (spec, "Fallos
/// acotados"). A batch that meets a full, failing or unwritable disk is lost; so is every batch
/// after it, without touching SQLite, until `retryInterval` has passed — then the next one is
/// tried, and a success resumes writing. So a full disk costs one failed write every few
/// seconds, not one per batch in a tight loop, and freeing space brings the history back.
/// Other failures (a lock held past the busy timeout, a statement refused) lose only their own
/// batch. Pure: time is an input, monotonic nanoseconds.
package struct StoreFailurePause: Sendable, Equatable {
    package static let retryInterval: UInt64 = 5_000_000_000

    /// When the next batch may be tried; nil while writing normally.
    private(set) var resumesAt: UInt64?

    package init() {}

    package var isPaused: Bool { resumesAt != nil }

    /// Whether a batch taken at `now` is written, or lost unwritten because the disk failed.
    package func admits(now: UInt64) -> Bool {
        guard let resumesAt else { return true }
        return now >= resumesAt
    }

    /// A batch failed with `error` at `now`. Returns true when this failure stops the history
    /// (it was writing until now): the moment to tell the person, once.
    package mutating func failed(_ error: StoreError, now: UInt64) -> Bool {
        guard Self.failsTheDisk(error) else { return false }
        let wasWriting = resumesAt == nil
        resumesAt = now &+ Self.retryInterval
        return wasWriting
    }

    /// A batch was written: the disk takes writes again.
    package mutating func succeeded() { resumesAt = nil }

    /// Failures of the disk or its file system rather than of one batch.
    static func failsTheDisk(_ error: StoreError) -> Bool {
        switch error {
        case .diskFull, .ioFailed, .notWritable: true
        default: false
        }
    }
}
