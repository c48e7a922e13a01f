import Foundation
import Testing
@testable import Shared

/// The retention policy over made-up listings: gigabyte files without writing a byte.
@Suite struct RetentionPlannerTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let day: TimeInterval = 86_400
    static let mib: UInt64 = 1 << 20

    /// Capture `sequence`, started `startedDaysAgo` (its name) and last written `writtenDaysAgo`.
    static func file(_ sequence: UInt32, mib: UInt64 = 64, startedDaysAgo: Double, writtenDaysAgo: Double?) -> CaptureFileInfo {
        let start = now.addingTimeInterval(-startedDaysAgo * day)
        let name = CaptureFileName.make(sequence: sequence, nanosecondsSince1970: Int64(start.timeIntervalSince1970) * 1_000_000_000)
        return CaptureFileInfo(sequence: sequence, url: URL(fileURLWithPath: "/captures/\(name)"), byteCount: mib * Self.mib,
                               createdAt: writtenDaysAgo.map { now.addingTimeInterval(-$0 * day) })
    }

    /// Files started 10, 9, … days ago, each written until the next began.
    static func dailyFiles(_ count: Int, mib: UInt64 = 64) -> [CaptureFileInfo] {
        (0..<count).map { index in
            file(UInt32(index + 1), mib: mib, startedDaysAgo: Double(count - index), writtenDaysAgo: Double(count - index - 1))
        }
    }

    static func plan(_ files: [CaptureFileInfo], age: RetentionAge = .unlimited, size: RetentionSize = .unlimited,
                     recording: UInt32? = nil, evidence: Set<UInt32> = []) -> RetentionPlan {
        RetentionPlanner.plan(files: files, settings: RetentionSettings(maxAge: age, maxCaptureSize: size), now: now,
                              recordingSequence: recording, evidenceSequences: evidence)
    }

    @Test("no limits: nothing to delete and no history cutoff")
    func noLimitsPlanNothing() {
        let plan = Self.plan(Self.dailyFiles(10))
        #expect(plan.filesToDelete.isEmpty && plan.historyCutoff == nil && !plan.hasWork)
        #expect(plan.captureBytesAfter == 640 * Self.mib)
    }

    @Test("the age limit alone deletes files whose records all predate the cutoff, and prunes the history at it")
    func theAgeLimitAlone() {
        // Ten files started 10…1 days ago; a week's limit: files 1–3 ended 9, 8, 7+ days ago… file 3 ended 7 days ago.
        let plan = Self.plan(Self.dailyFiles(10), age: .oneWeek)
        #expect(plan.historyCutoff == Self.now.addingTimeInterval(-7 * Self.day))
        // File n's last write is (10 - n) days ago: older than 7 days for n = 1, 2 (9 and 8 days); file 3's is exactly 7: kept.
        #expect(plan.filesToDelete == [1, 2])
        #expect(plan.bytesReclaimed == 128 * Self.mib && plan.hasWork)
    }

    @Test("the successor's start dates a file: a file touched since (a copy) still goes when its successor began before the cutoff")
    func theSuccessorDateRule() {
        // File 1's last write looks recent (copied in), but file 2 started 20 days ago: file 1 ended before that.
        let files = [Self.file(1, startedDaysAgo: 30, writtenDaysAgo: 0), Self.file(2, startedDaysAgo: 20, writtenDaysAgo: 0),
                     Self.file(3, startedDaysAgo: 1, writtenDaysAgo: 0)]
        // File 2 is dated by file 3, begun a day ago: kept.
        #expect(Self.plan(files, age: .oneWeek).filesToDelete == [1])
    }

    @Test("a file's own last write dates it when its successor started later (a session long after)")
    func theLastWriteDatesAFileBeforeALateSuccessor() {
        // The last session ended 40 days ago; today's session started file 2 a minute ago.
        let files = [Self.file(1, startedDaysAgo: 41, writtenDaysAgo: 40), Self.file(2, startedDaysAgo: 0.001, writtenDaysAgo: 0)]
        #expect(Self.plan(files, age: .oneMonth, recording: 2).filesToDelete == [1])
    }

    @Test("a successor with no date in its name and a file with no last write: kept, nothing dates it")
    func aSuccessorWithNoDate() {
        let undated = CaptureFileInfo(sequence: 2, url: URL(fileURLWithPath: "/captures/tunnelvision-000002-20261399-000000.pcap"),
                                      byteCount: Self.mib, createdAt: nil)
        #expect(CaptureFileName.startSecondsSince1970(in: undated.url.lastPathComponent) == nil)
        let first = Self.file(1, startedDaysAgo: 60, writtenDaysAgo: nil)
        let newest = Self.file(3, startedDaysAgo: 0, writtenDaysAgo: 0)
        // File 1: its successor (2) has no date and it has no last write of its own: nothing dates it.
        // File 2: its successor started now. Nothing goes.
        #expect(Self.plan([first, undated, newest], age: .oneDay).filesToDelete == [])
        // With its last write known, it is dated by that.
        let written = Self.file(1, startedDaysAgo: 60, writtenDaysAgo: 59)
        #expect(Self.plan([written, undated, newest], age: .oneDay).filesToDelete.contains(1))
    }

    @Test("the newest file is exempt from the age limit, however old")
    func theNewestFileIsExempt() {
        let files = [Self.file(1, startedDaysAgo: 90, writtenDaysAgo: 89), Self.file(2, startedDaysAgo: 80, writtenDaysAgo: 79)]
        #expect(Self.plan(files, age: .oneDay).filesToDelete == [1])
        #expect(Self.plan([files[1]], age: .oneDay).filesToDelete.isEmpty)
    }

    @Test("the size limit alone deletes oldest first until what is left fits")
    func theSizeLimitAlone() {
        // 10 × 64 MiB = 640 MiB against 256 MiB: the six oldest go, 256 MiB stays (at the limit is within it).
        let plan = Self.plan(Self.dailyFiles(10), size: .megabytes256)
        #expect(plan.filesToDelete == [1, 2, 3, 4, 5, 6])
        #expect(plan.captureBytesAfter == 256 * Self.mib && plan.historyCutoff == nil && !plan.sizeCapUnreachable)
    }

    @Test("both limits together: the age limit's files, then oldest first for size among the rest")
    func bothLimitsTogether() {
        // 20 files of 100 MiB, 2 GiB, against 1 GiB and a week.
        let files = Self.dailyFiles(20, mib: 100)
        let plan = Self.plan(files, age: .oneWeek, size: .gigabytes1)
        // Age: last writes 19…0 days ago → files 1–12 (19…8 days). Size: 8 left × 100 MiB = 800 MiB fits.
        #expect(plan.filesToDelete == Array(1...12))
        let sizeFirst = Self.plan(files, age: .oneMonth, size: .gigabytes1)
        // A month spares all; size: 2000 MiB → ≤ 1024 MiB needs ten to go.
        #expect(sizeFirst.filesToDelete == Array(1...10))
        #expect(sizeFirst.captureBytesAfter == 1000 * Self.mib)
    }

    @Test("the recording file is immune to both limits, and a limit it alone exceeds is unreachable")
    func theRecordingFileIsImmune() {
        let files = [Self.file(1, mib: 100, startedDaysAgo: 30, writtenDaysAgo: 29),
                     Self.file(2, mib: 300, startedDaysAgo: 29, writtenDaysAgo: 0)]
        let plan = Self.plan(files, age: .oneDay, size: .megabytes256, recording: 2)
        #expect(plan.filesToDelete == [1])
        #expect(plan.sizeCapUnreachable && plan.captureBytesAfter == 300 * Self.mib)
        // Not recording (no tunnel), the same 300 MiB newest file goes for size.
        let idle = Self.plan(files, size: .megabytes256, recording: nil)
        #expect(idle.filesToDelete == [1, 2] && !idle.sizeCapUnreachable)
        // Recording a file that is not the newest (a stranger wrote a higher one): still immune.
        let odd = Self.plan(Self.dailyFiles(5), age: .oneDay, size: .megabytes256, recording: 1)
        #expect(!odd.filesToDelete.contains(1))
    }

    @Test("the file being recorded counts at the size it grows to: the closed files leave it that room under the limit")
    func theRecordingFileCountsAtItsRotationSize() {
        // Five closed 60 MiB files and a 4 MiB file being recorded, against 256 MiB: the files
        // hold 304 MiB; with the recording one counted at 64 MiB, the closed ones keep to 192.
        var files = Self.dailyFiles(5, mib: 60)
        files.append(Self.file(6, mib: 4, startedDaysAgo: 0, writtenDaysAgo: 0))
        let plan = Self.plan(files, size: .megabytes256, recording: 6)
        #expect(plan.filesToDelete == [1, 2])
        #expect(plan.captureBytesAfter == 184 * Self.mib)
        #expect(plan.captureBytesAfter + RetentionPlanner.recordingGrowth(files: files, recordingSequence: 6) <= 256 * Self.mib)
        #expect(RetentionPlanner.recordingGrowth(files: files, recordingSequence: 6) == 60 * Self.mib)
        // Not recording, the same files fit by what they hold: only one goes.
        #expect(Self.plan(files, size: .megabytes256, recording: nil).filesToDelete == [1])
        // A recording file past the rotation size (a single huge record) counts as what it holds.
        #expect(RetentionPlanner.recordingGrowth(files: [Self.file(1, mib: 70, startedDaysAgo: 0, writtenDaysAgo: 0)],
                                                 recordingSequence: 1) == 0)
    }

    @Test("room for a file about to open: it is not listed yet and counts at the full rotation size")
    func roomForAFileAboutToOpen() {
        // Four closed 64 MiB files fill 256 MiB exactly; file 5 is about to open.
        let files = Self.dailyFiles(4)
        let plan = Self.plan(files, size: .megabytes256, recording: 5)
        #expect(plan.filesToDelete == [1] && plan.captureBytesAfter == 192 * Self.mib && !plan.sizeCapUnreachable)
        // The rotation size is the writer's: a smaller one needs less room.
        let small = RetentionPlanner.plan(files: files, settings: RetentionSettings(maxAge: .unlimited, maxCaptureSize: .megabytes256),
                                          now: Self.now, recordingSequence: 5, evidenceSequences: [], rotationBytes: 0)
        #expect(small.filesToDelete.isEmpty)
    }

    @Test("a file newer than the one being recorded is spared too: a pass planned before a rotation never takes the new file")
    func aNewerFileIsSpared() {
        // A pass still planning for file 3 while the writer has moved on to file 4.
        let files = [Self.file(1, mib: 100, startedDaysAgo: 3, writtenDaysAgo: 2), Self.file(2, mib: 100, startedDaysAgo: 2, writtenDaysAgo: 1),
                     Self.file(3, mib: 64, startedDaysAgo: 1, writtenDaysAgo: 0), Self.file(4, mib: 200, startedDaysAgo: 0, writtenDaysAgo: 0)]
        let plan = Self.plan(files, age: .oneDay, size: .megabytes256, recording: 3)
        #expect(plan.filesToDelete == [1, 2] && plan.sizeCapUnreachable)
    }

    @Test("oldest first whatever the listing's order, and reclaimed plus remaining add up to the directory")
    func oldestFirstAndTheSumsAddUp() {
        var random = SystemRandomNumberGenerator()
        let files = Self.dailyFiles(12, mib: 50)
        for _ in 0..<20 {
            let shuffled = files.shuffled(using: &random)
            for (age, size) in [(RetentionAge.oneWeek, RetentionSize.megabytes256), (.oneDay, .unlimited), (.unlimited, .megabytes256)] {
                let plan = Self.plan(shuffled, age: age, size: size)
                #expect(plan == Self.plan(files, age: age, size: size))
                #expect(plan.filesToDelete == plan.filesToDelete.sorted())
                #expect(plan.bytesReclaimed + plan.captureBytesAfter == 600 * Self.mib)
                #expect(plan.bytesReclaimed == UInt64(plan.filesToDelete.count) * 50 * Self.mib)
            }
        }
    }

    // MARK: Audit evidence (decision 7)

    @Test("evidence is kept past the age limit, whole and however old, while the files around it go")
    func evidenceIsKeptPastTheAgeLimit() {
        // Files started 10…1 days ago; a week's limit would take 1 and 2. File 1 holds evidence.
        let plan = Self.plan(Self.dailyFiles(10), age: .oneWeek, evidence: [1])
        #expect(plan.filesToDelete == [2])
        #expect(plan.keptEvidence == KeptEvidence(files: [1], bytes: 64 * Self.mib))
        #expect(plan.bytesReclaimed == 64 * Self.mib && plan.captureBytesAfter == 576 * Self.mib)
        // The history is still pruned at the cutoff: the store spares evidence rows itself.
        #expect(plan.historyCutoff == Self.now.addingTimeInterval(-7 * Self.day))
        // However old: a day's limit takes every file but the newest, the evidence and the one recording.
        let old = Self.plan(Self.dailyFiles(10), age: .oneDay, recording: 10, evidence: [2, 5])
        #expect(old.filesToDelete == [1, 3, 4, 6, 7, 8])
        #expect(!old.sizeCapHeldByEvidence && !old.sizeCapUnreachable)
    }

    @Test("the size limit passes over evidence and takes newer files in its place, and the limit is met without it")
    func theSizeLimitSkipsEvidence() {
        // 10 × 64 MiB against 256 MiB: without evidence files 1–6 go. Files 1 and 3 hold evidence:
        // 1 and 3 stay, so 2, 4, 5, 6, 7 and 8 go, leaving 1, 3, 9, 10 = 256 MiB.
        let plan = Self.plan(Self.dailyFiles(10), size: .megabytes256, evidence: [1, 3])
        #expect(plan.filesToDelete == [2, 4, 5, 6, 7, 8])
        #expect(plan.captureBytesAfter == 256 * Self.mib)
        #expect(!plan.sizeCapHeldByEvidence && !plan.sizeCapUnreachable)
        #expect(plan.keptEvidence == KeptEvidence(files: [1, 3], bytes: 128 * Self.mib))
        // Only as many newer files go as the limit needs.
        let light = Self.plan(Self.dailyFiles(5), size: .megabytes256, evidence: [1])
        #expect(light.filesToDelete == [2] && light.captureBytesAfter == 256 * Self.mib)
    }

    @Test("evidence is never planned, even when it is the oldest file and the size limit could only be met by deleting it")
    func evidenceIsNeverPlanned() {
        // Four evidence files of 100 MiB, the oldest of all, against 256 MiB, and two newer files.
        var files: [CaptureFileInfo] = []
        for sequence in 1...4 {
            files.append(Self.file(UInt32(sequence), mib: 100, startedDaysAgo: Double(30 - sequence), writtenDaysAgo: Double(29 - sequence)))
        }
        files += [Self.file(5, mib: 10, startedDaysAgo: 2, writtenDaysAgo: 1), Self.file(6, mib: 10, startedDaysAgo: 1, writtenDaysAgo: 0)]
        let plan = Self.plan(files, age: .oneDay, size: .megabytes256, evidence: [1, 2, 3, 4])
        #expect(plan.filesToDelete.allSatisfy { ![1, 2, 3, 4].contains($0) })
        // The newer files go in their place (the limit still bounds what piles up beside the evidence).
        #expect(plan.filesToDelete == [5, 6] && plan.captureBytesAfter == 400 * Self.mib)
        #expect(plan.sizeCapHeldByEvidence && !plan.sizeCapUnreachable)
        #expect(plan.keptEvidence == KeptEvidence(files: [1, 2, 3, 4], bytes: 400 * Self.mib))
        // Whatever the listing's order, and whatever the limits.
        for (age, size) in [(RetentionAge.oneDay, RetentionSize.megabytes256), (.oneDay, .unlimited), (.unlimited, .megabytes256)] {
            #expect(Self.plan(Array(files.reversed()), age: age, size: size, evidence: [1, 2, 3, 4]).filesToDelete.allSatisfy { $0 > 4 })
        }
    }

    @Test("sizeCapHeldByEvidence only when the evidence is why: not within the limit, not when the recording file alone exceeds it")
    func heldByEvidenceOnlyWhenEvidenceIsWhy() {
        // Within the limit with evidence in it: nothing held.
        let within = Self.plan(Self.dailyFiles(3), size: .megabytes256, evidence: [1, 2])
        #expect(!within.sizeCapHeldByEvidence && within.filesToDelete.isEmpty && within.keptEvidence.files == [1, 2])
        // The same files with no evidence over the limit: the oldest go, nothing held.
        #expect(!Self.plan(Self.dailyFiles(6), size: .megabytes256).sizeCapHeldByEvidence)
        // The file being recorded alone exceeds the limit: unreachable, whatever evidence there is too.
        let files = [Self.file(1, mib: 100, startedDaysAgo: 3, writtenDaysAgo: 2), Self.file(2, mib: 300, startedDaysAgo: 2, writtenDaysAgo: 0)]
        let recorded = Self.plan(files, size: .megabytes256, recording: 2, evidence: [1])
        #expect(recorded.sizeCapUnreachable && !recorded.sizeCapHeldByEvidence && recorded.filesToDelete.isEmpty)
        // Evidence plus the file being recorded at the size it grows to: held by the evidence, not unreachable.
        let growing = [Self.file(1, mib: 200, startedDaysAgo: 3, writtenDaysAgo: 2), Self.file(2, mib: 4, startedDaysAgo: 2, writtenDaysAgo: 0)]
        let held = Self.plan(growing, size: .megabytes256, recording: 2, evidence: [1])
        #expect(held.sizeCapHeldByEvidence && !held.sizeCapUnreachable && held.filesToDelete.isEmpty)
        // The file being recorded holding evidence is kept for being recorded, not counted as kept evidence.
        #expect(Self.plan(growing, size: .megabytes256, recording: 2, evidence: [2]).keptEvidence == .none)
    }

    @Test("the name's start time reads back what the writer wrote, and an impossible time reads as none")
    func theNameCarriesTheStart() {
        let name = CaptureFileName.make(sequence: 7, nanosecondsSince1970: 1_800_000_123_456_789_000)
        #expect(CaptureFileName.startSecondsSince1970(in: name) == 1_800_000_123)
        #expect(CaptureFileName.startSecondsSince1970(in: "tunnelvision-000007-20260230-120000.pcap") == nil)
        #expect(CaptureFileName.startSecondsSince1970(in: "tunnelvision-000007-20261201-246000.pcap") == nil)
        #expect(CaptureFileName.startSecondsSince1970(in: "other.pcap") == nil)
    }
}
