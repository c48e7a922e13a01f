/// What the retention the tunnel applies at session start and when the capture rotates did
/// (seeds/003 § PipelineStats): the runtime's, not the pipeline's, carried beside the pipeline's
/// counters because a sweep that fails with nobody watching has nowhere else to be counted.
package struct RetentionStats: Codable, Sendable, Equatable {
    /// Retention passes run (one at session start, one per rotation; rotations close together share one).
    /// The room made for each new capture file just before it opens is not one of them.
    package var sweeps: UInt64
    /// Capture files deleted by retention: by the passes, and to make room for a new capture file.
    package var capturesReclaimed: UInt64
    /// The bytes those files held.
    package var bytesReclaimed: UInt64
    /// History rows (connections) deleted for age.
    package var flowsPruned: UInt64
    /// Retention sweeps, or deletions within one, that failed: a sweep (or the room made for a
    /// new capture file) that could not list the captures or read the audit evidence deleted
    /// nothing and counts once.
    package var retentionFailures: UInt64
    /// The last retention failure, as the person should read it.
    package var lastRetentionError: String?

    package init(sweeps: UInt64 = 0, capturesReclaimed: UInt64 = 0, bytesReclaimed: UInt64 = 0, flowsPruned: UInt64 = 0,
                retentionFailures: UInt64 = 0, lastRetentionError: String? = nil) {
        self.sweeps = sweeps
        self.capturesReclaimed = capturesReclaimed
        self.bytesReclaimed = bytesReclaimed
        self.flowsPruned = flowsPruned
        self.retentionFailures = retentionFailures
        self.lastRetentionError = lastRetentionError
    }

    /// Retention on, nothing swept yet.
    package static let zero = RetentionStats()

    /// Adds one pass: what it deleted and pruned, and each failure (the last one kept to be read).
    /// `sweep` false: the room made for a new capture file (`RetentionPass.makeRoom`), not a pass.
    package mutating func add(_ result: RetentionPass.Result, sweep: Bool = true) {
        if sweep { sweeps += 1 }
        switch result {
        case let .done(outcome, _):
            capturesReclaimed += UInt64(outcome.deletedFiles.count)
            bytesReclaimed += outcome.bytesReclaimed
            flowsPruned += UInt64(outcome.prunedFlows)
            retentionFailures += UInt64(outcome.failures.count)
            if let last = outcome.failures.last { lastRetentionError = last }
        case let .listingUnreadable(reason):
            retentionFailures += 1
            lastRetentionError = "the captures could not be listed, so nothing was deleted: \(reason)"
        case let .evidenceUnreadable(reason):
            retentionFailures += 1
            lastRetentionError = RetentionPass.evidenceUnreadableSentence(reason)
        }
    }
}
