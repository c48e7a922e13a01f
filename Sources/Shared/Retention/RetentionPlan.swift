import Foundation

/// What a retention pass will do, decided before anything is deleted (`RetentionPlanner`), so a
/// screen can say it before it happens and a test can assert it over made-up listings.
package struct RetentionPlan: Sendable, Equatable {
    /// The history's rows last seen before this instant go (`FlowStore.prune(before:)`, which
    /// spares audit evidence itself); nil when there is no age limit.
    package let historyCutoff: Date?
    /// The capture files to delete, oldest first (by sequence), whatever the listing's order.
    package let filesToDelete: [UInt32]
    /// The bytes those files hold.
    package let bytesReclaimed: UInt64
    /// What the captures will hold afterwards: with `bytesReclaimed`, the whole directory.
    package let captureBytesAfter: UInt64
    /// The size limit cannot be met even after the plan: the file being recorded, counted at the
    /// size it grows to (`RetentionPlanner`, decision 4), alone is larger.
    package let sizeCapUnreachable: Bool
    /// The size limit cannot be met even after the plan because of the files audit evidence keeps
    /// (`keptEvidence`): without them it would be. Never together with `sizeCapUnreachable`,
    /// which deleting evidence would not cure.
    package let sizeCapHeldByEvidence: Bool
    /// The files kept whatever the limits because audit evidence is in them.
    package let keptEvidence: KeptEvidence

    package init(historyCutoff: Date?, filesToDelete: [UInt32], bytesReclaimed: UInt64, captureBytesAfter: UInt64,
                sizeCapUnreachable: Bool, sizeCapHeldByEvidence: Bool, keptEvidence: KeptEvidence) {
        self.historyCutoff = historyCutoff
        self.filesToDelete = filesToDelete
        self.bytesReclaimed = bytesReclaimed
        self.captureBytesAfter = captureBytesAfter
        self.sizeCapUnreachable = sizeCapUnreachable
        self.sizeCapHeldByEvidence = sizeCapHeldByEvidence
        self.keptEvidence = keptEvidence
    }

    /// Something to do: a file to delete, or a history to prune by age (which may find no row).
    package var hasWork: Bool { !filesToDelete.isEmpty || historyCutoff != nil }
}
