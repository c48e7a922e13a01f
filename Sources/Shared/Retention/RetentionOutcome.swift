/// What a retention pass did (`RetentionPass`): the app's `storage apply` and `storage clear`
/// answer with it, and the tunnel folds it into its `RetentionStats`.
package struct RetentionOutcome: Sendable, Equatable {
    /// Deleted, oldest first.
    package let deletedFiles: [UInt32]
    package let bytesReclaimed: UInt64
    /// History rows (connections) deleted.
    package let prunedFlows: Int
    /// One sentence per thing that could not be done (a file that would not go, a history that
    /// would not open or prune, audit evidence that could not be read), each naming what and why;
    /// the pass never stops at the first.
    package let failures: [String]
    /// The size limit still cannot be met: the file being recorded, at the size it grows to, alone exceeds it.
    package let sizeCapUnreachable: Bool
    /// The size limit still cannot be met because of the files audit evidence keeps (`keptEvidence`).
    package let sizeCapHeldByEvidence: Bool
    /// The files the pass kept, whatever the limits, because audit evidence is in them.
    package let keptEvidence: KeptEvidence

    package init(deletedFiles: [UInt32] = [], bytesReclaimed: UInt64 = 0, prunedFlows: Int = 0, failures: [String] = [],
                sizeCapUnreachable: Bool = false, sizeCapHeldByEvidence: Bool = false, keptEvidence: KeptEvidence = .none) {
        self.deletedFiles = deletedFiles
        self.bytesReclaimed = bytesReclaimed
        self.prunedFlows = prunedFlows
        self.failures = failures
        self.sizeCapUnreachable = sizeCapUnreachable
        self.sizeCapHeldByEvidence = sizeCapHeldByEvidence
        self.keptEvidence = keptEvidence
    }

    /// A file or a row went: an automatic pass that changed nothing says nothing.
    package var didChangeAnything: Bool { !deletedFiles.isEmpty || prunedFlows > 0 }
}
