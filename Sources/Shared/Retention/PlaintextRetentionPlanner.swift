/// Which decrypted-content files go (spec-notes/plaintext.md, "The sweep"): the whole policy, no
/// I/O. The index was already pruned by age row by row, so a file no row references any more is
/// an orphan and goes; then the fixed ceiling deletes oldest first, measured after the orphans.
/// The file being written is never deleted; when it alone exceeds the ceiling the plan says so
/// instead of deleting everything else for nothing more.
package enum PlaintextRetentionPlanner {
    package static func plan(files: [PlaintextFileInfo], referenced: Set<UInt32>, openSequence: UInt32?,
                            ceiling: UInt64) -> PlaintextSweepPlan {
        let ordered = files.sorted { $0.sequence < $1.sequence }
        let orphans = ordered.filter { !referenced.contains($0.sequence) && $0.sequence != openSequence }
        let orphaned = Set(orphans.map(\.sequence))
        var remaining = ordered.reduce(UInt64(0)) { orphaned.contains($1.sequence) ? $0 : $0 + $1.byteCount }
        var victims: [UInt32] = []
        for file in ordered where remaining > ceiling && file.sequence != openSequence && !orphaned.contains(file.sequence) {
            victims.append(file.sequence)
            remaining -= file.byteCount
        }
        return PlaintextSweepPlan(orphans: orphans.map(\.sequence), ceilingVictims: victims, bytesAfter: remaining,
                                  ceilingUnreachable: remaining > ceiling)
    }

    /// The file being written, deduced from the listing (the tunnel's writer and the app alike):
    /// the newest while a tunnel is monitoring, none otherwise.
    package static func openSequence(files: [PlaintextFileInfo], isMonitoring: Bool) -> UInt32? {
        isMonitoring ? files.map(\.sequence).max() : nil
    }
}

/// What a sweep will delete, decided before anything is.
package struct PlaintextSweepPlan: Sendable, Equatable {
    /// Files no index row references, oldest first.
    package let orphans: [UInt32]
    /// Files the ceiling takes, oldest first, with their index rows.
    package let ceilingVictims: [UInt32]
    /// What the directory holds afterwards.
    package let bytesAfter: UInt64
    /// The file being written alone exceeds the ceiling.
    package let ceilingUnreachable: Bool

    package init(orphans: [UInt32], ceilingVictims: [UInt32], bytesAfter: UInt64, ceilingUnreachable: Bool) {
        self.orphans = orphans
        self.ceilingVictims = ceilingVictims
        self.bytesAfter = bytesAfter
        self.ceilingUnreachable = ceilingUnreachable
    }
}
