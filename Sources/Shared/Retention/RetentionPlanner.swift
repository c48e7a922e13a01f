import Foundation

/// Who goes when the retention limits are applied (storage manager spec, "The pure core"): the
/// whole policy, no I/O, so both the app's `storage apply` and the tunnel's own sweep decide alike.
///
/// Seven decisions:
/// 1. **A file is as old as its newest record.** Two facts bound that instant from above: the
///    start of the next file (the time in its name, stamped by the writer as it opened it, and the
///    writer never writes an older file again) and the file's own last write (`createdAt`, its
///    modification time). The earlier of the two that are known dates the file; a file past the
///    age limit by that date goes, one with neither is kept.
/// 2. **The newest file is exempt from the age limit**: it has no successor, so it is what is
///    left of the last session until a newer one exists (the next session's start dates it).
/// 3. **The file being recorded is never deleted**, by either limit, **nor any newer one** (a
///    pass planned before a rotation must not take the file the writer moved on to).
/// 4. **The size limit holds the file being recorded at its full size.** It grows until the
///    writer starts the next at `rotationBytes`, so it counts as that much (or what it holds, if
///    more) from the moment it opens: the closed files leave it that room, and the directory stays
///    within the limit while it fills. The tunnel plans for the file it is about to open before
///    it opens it (`recordingSequence` not yet listed), so a new file never pushes the directory
///    over the limit either. With no file being recorded, the files as they are must fit.
/// 5. **The size limit deletes oldest first** until what is left fits; when the file being
///    recorded alone exceeds it, the limit is unreachable and the plan says so instead of
///    deleting everything else for nothing more.
/// 6. **The history is pruned by age only** (SQLite does not give back the space of deleted rows,
///    so a byte cap on it could not be kept): rows last seen before now − the age limit.
/// 7. **Audit evidence is never planned** (audit.md § Retention): a file holding a packet of any
///    audit session, open or ended (`evidenceSequences`), is kept whole by either limit until
///    that session or its project is deleted — ending a session does not end it. The size limit
///    passes over it and takes newer files in its place, oldest first, until what is left fits
///    or nothing but evidence and the file being recorded is left: beside evidence over the
///    limit, the limit still bounds what else piles up. When the evidence is why the limit
///    cannot be met, the plan says so (`sizeCapHeldByEvidence`, with `keptEvidence`), apart from
///    the file being recorded's own case of decision 5 (`sizeCapUnreachable`), which deleting
///    evidence would not cure. The evidence is the caller's to read in one query just before
///    planning (`FlowStore.auditEvidenceFileSequences()`); one it cannot read plans nothing at
///    all (`RetentionPass`), never an empty set.
package enum RetentionPlanner {
    /// The size a capture file grows to before the tunnel's writer starts the next: what decision
    /// 4 holds for the file being recorded (`PcapFileWriter`'s default, which the tunnel uses).
    package static let rotationBytes = PcapFileWriter.defaultMaxFileBytes

    package static func plan(files: [CaptureFileInfo], settings: RetentionSettings, now: Date, recordingSequence: UInt32?,
                            evidenceSequences: Set<UInt32>, rotationBytes: UInt64 = rotationBytes) -> RetentionPlan {
        let ordered = files.sorted { $0.sequence < $1.sequence }
        let cutoff = settings.maxAge.maxAge.map { now.addingTimeInterval(-$0) }
        // Decision 3: the file being recorded and any newer one are spared.
        let spared = { (file: CaptureFileInfo) in recordingSequence.map { file.sequence >= $0 } ?? false }
        // Decision 7: so is evidence, by both limits.
        let evidence = ordered.filter { !spared($0) && evidenceSequences.contains($0.sequence) }
        let kept = { (file: CaptureFileInfo) in spared(file) || evidenceSequences.contains(file.sequence) }
        var doomed = Set<UInt32>()
        if let cutoff {
            for (index, file) in ordered.enumerated().dropLast() where !kept(file) {
                if let newest = newestRecordBound(of: file, successor: ordered[index + 1]), newest < cutoff {
                    doomed.insert(file.sequence)
                }
            }
        }
        let total = ordered.reduce(UInt64(0)) { $0 + $1.byteCount }
        var remaining = ordered.reduce(UInt64(0)) { doomed.contains($1.sequence) ? $0 : $0 + $1.byteCount }
        var unreachable = false
        var heldByEvidence = false
        if let cap = settings.maxCaptureSize.maxBytes {
            // Decision 4: what the file being recorded may still grow by counts as if written.
            let growth = recordingGrowth(files: ordered, recordingSequence: recordingSequence, rotationBytes: rotationBytes)
            for file in ordered where remaining + growth > cap && !kept(file) && !doomed.contains(file.sequence) {
                doomed.insert(file.sequence)
                remaining -= file.byteCount
            }
            let recordingAlone = ordered.reduce(UInt64(0)) { spared($1) ? $0 + $1.byteCount : $0 } + growth > cap
            unreachable = remaining + growth > cap && recordingAlone
            heldByEvidence = remaining + growth > cap && !recordingAlone
        }
        return RetentionPlan(historyCutoff: cutoff, filesToDelete: ordered.map(\.sequence).filter(doomed.contains),
                             bytesReclaimed: total - remaining, captureBytesAfter: remaining,
                             sizeCapUnreachable: unreachable, sizeCapHeldByEvidence: heldByEvidence,
                             keptEvidence: KeptEvidence(files: evidence.map(\.sequence),
                                                        bytes: evidence.reduce(0) { $0 + $1.byteCount }))
    }

    /// The bytes the file being recorded may still gain before the writer starts the next
    /// (decision 4): `rotationBytes` less what it holds, or all of it for a file about to open
    /// (not listed yet); none when nothing is being recorded.
    package static func recordingGrowth(files: [CaptureFileInfo], recordingSequence: UInt32?,
                                       rotationBytes: UInt64 = rotationBytes) -> UInt64 {
        guard let recordingSequence else { return 0 }
        let held = files.first { $0.sequence == recordingSequence }?.byteCount ?? 0
        return rotationBytes > held ? rotationBytes - held : 0
    }

    /// The latest instant `file`'s newest record can have (decision 1); nil when nothing dates it.
    package static func newestRecordBound(of file: CaptureFileInfo, successor: CaptureFileInfo) -> Date? {
        let successorStart = CaptureFileName.startSecondsSince1970(in: successor.url.lastPathComponent)
            .map { Date(timeIntervalSince1970: TimeInterval($0)) }
        return [successorStart, file.createdAt].compactMap { $0 }.min()
    }
}
