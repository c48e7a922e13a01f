import Foundation
import Testing
@testable import App
import Shared

/// The captures screen's decisions and the room left, over made-up listings.
@Suite struct CapturesPresentationTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let day: TimeInterval = 86_400
    static let mib: UInt64 = 1 << 20

    static func file(_ sequence: UInt32, mib: UInt64, startedDaysAgo: Double, writtenDaysAgo: Double) -> CaptureFileInfo {
        let name = CaptureFileName.make(sequence: sequence,
                                        nanosecondsSince1970: Int64(now.timeIntervalSince1970 - startedDaysAgo * day) * 1_000_000_000)
        return CaptureFileInfo(sequence: sequence, url: URL(fileURLWithPath: "/c/\(name)"), byteCount: mib * Self.mib,
                               createdAt: now.addingTimeInterval(-writtenDaysAgo * day))
    }

    static let files = [file(3, mib: 10, startedDaysAgo: 2, writtenDaysAgo: 1), file(1, mib: 30, startedDaysAgo: 4, writtenDaysAgo: 3),
                        file(2, mib: 20, startedDaysAgo: 3, writtenDaysAgo: 2)]

    static func headroom(_ files: [CaptureFileInfo], _ age: RetentionAge, _ size: RetentionSize, recording: UInt32?) -> CaptureHeadroom {
        CaptureHeadroom.assess(files: files, settings: .success(RetentionSettings(maxAge: age, maxCaptureSize: size)),
                               recordingSequence: recording, evidence: .files([]), now: now)
    }

    @Test("the file being recorded is the highest sequence, and only while a tunnel is live")
    func theRecordingSequence() {
        #expect(CapturesPresentation.recordingSequence(files: Self.files, isMonitoring: true) == 3)
        #expect(CapturesPresentation.recordingSequence(files: Self.files, isMonitoring: false) == nil)
        #expect(CapturesPresentation.recordingSequence(files: [], isMonitoring: true) == nil)
        #expect(!CapturesTunnelPresence.absent.mayBeRecording && CapturesTunnelPresence.unknown("EACCES").mayBeRecording)
    }

    @Test("rows newest first with the recording one and audit evidence marked; the footer says the size once, beside its limit")
    func rowsAndFooter() {
        let rows = CapturesPresentation.rows(files: Self.files, recordingSequence: 3, evidence: .files([]))
        #expect(rows.map(\.sequence) == [3, 2, 1] && rows.map(\.isRecording) == [true, false, false])
        #expect(rows[0].size == "10.0 MiB" && rows[0].name.hasPrefix("tunnelvision-000003-"))
        // Audit evidence marked, and unknown when it could not be read.
        #expect(rows.map(\.holdsEvidence) == [false, false, false])
        #expect(CapturesPresentation.rows(files: Self.files, recordingSequence: 3, evidence: .files([1])).map(\.holdsEvidence)
                == [false, false, true])
        #expect(CapturesPresentation.rows(files: Self.files, recordingSequence: 3, evidence: .unreadable("locked")).map(\.holdsEvidence)
                == [nil, nil, nil])
        #expect(CapturesPresentation.footer(files: Self.files, sizeLimit: .gigabytes1) == "3 captures, 60.0 MiB of the 1.0 GiB limit")
        #expect(CapturesPresentation.footer(files: Self.files, sizeLimit: .unlimited) == "3 captures, 60.0 MiB (no size limit)")
        #expect(CapturesPresentation.footer(files: [Self.files[0]], sizeLimit: nil) == "1 capture, 10.0 MiB")
        #expect(CapturesPresentation.deletionRefusal(sequence: 3, recordingSequence: 3)?.contains("captures rotate") == true)
        #expect(CapturesPresentation.deletionRefusal(sequence: 2, recordingSequence: 3) == nil)
    }

    @Test("size: room to spare, limit full, unmeetable because the open capture exceeds it, no size limit")
    func theSizeOutcomes() {
        guard case .limits(.roomToSpare(let left, let used, _), _, _) = Self.headroom(Self.files, .unlimited, .megabytes256, recording: 3)
        else { Issue.record("no room to spare"); return }
        // 60 MiB used, and the 10 MiB capture being recorded holds 54 MiB more before the next file: 142 MiB left.
        #expect(left == 142 * Self.mib && used == 60 * Self.mib)
        #expect(Self.headroom(Self.files, .unlimited, .megabytes256, recording: 3).lines[0]
                == "room left: 142.0 MiB (60.0 MiB of the 256.0 MiB limit, 54.0 MiB kept for the capture being recorded to grow into); "
                    + "past it the oldest captures are deleted")
        // No tunnel running: nothing grows, the files as they are count.
        guard case .limits(.roomToSpare(let idleLeft, _, _), _, _) = Self.headroom(Self.files, .unlimited, .megabytes256, recording: nil)
        else { Issue.record("no room to spare"); return }
        #expect(idleLeft == 196 * Self.mib)
        let full = [Self.file(1, mib: 200, startedDaysAgo: 2, writtenDaysAgo: 1), Self.file(2, mib: 100, startedDaysAgo: 1, writtenDaysAgo: 0)]
        #expect(Self.headroom(full, .unlimited, .megabytes256, recording: 2)
                == .limits(.limitFull(used: 300 * Self.mib, limit: 256 * Self.mib), .off, kept: .none))
        let huge = [Self.file(1, mib: 10, startedDaysAgo: 2, writtenDaysAgo: 1), Self.file(2, mib: 300, startedDaysAgo: 1, writtenDaysAgo: 0)]
        #expect(Self.headroom(huge, .unlimited, .megabytes256, recording: 2)
                == .limits(.unmeetable(recording: 300 * Self.mib, limit: 256 * Self.mib), .off, kept: .none))
        #expect(Self.headroom(Self.files, .oneWeek, .unlimited, recording: 3).lines[0] == "no size limit: 60.0 MiB of captures")
    }

    @Test("expiry: the date the oldest goes, already past, no date yet, expiry off; neither limit; unreadable limits")
    func theExpiryOutcomes() {
        // File 1 ended 3 days ago (its own last write; file 2 began 3 days ago): a week's limit takes it in 4 days.
        #expect(Self.headroom(Self.files, .oneWeek, .unlimited, recording: 3)
                == .limits(.noLimit(used: 60 * Self.mib), .oldestGoes(Self.now.addingTimeInterval(4 * Self.day)), kept: .none))
        #expect(Self.headroom(Self.files, .oneDay, .unlimited, recording: 3) == .limits(.noLimit(used: 60 * Self.mib), .alreadyPast(count: 2), kept: .none))
        #expect(Self.headroom([Self.files[0]], .oneWeek, .unlimited, recording: nil) == .limits(.noLimit(used: 10 * Self.mib), .noDateYet, kept: .none))
        #expect(Self.headroom(Self.files, .unlimited, .megabytes256, recording: 3).lines[1] == "captures do not expire (no age limit)")
        #expect(Self.headroom(Self.files, .unlimited, .unlimited, recording: 3) == .neitherLimitSet(used: 60 * Self.mib))
        let unreadable = CaptureHeadroom.assess(files: Self.files, settings: .failure(.corruptData(path: "/d/settings.json", reason: "not JSON")),
                                                recordingSequence: 3, evidence: .files([]), now: Self.now)
        guard case .limitsUnreadable = unreadable else { Issue.record("\(unreadable)"); return }
        #expect(unreadable.lines.count == 1 && unreadable.lines[0].contains("room left is not shown"))
    }

    @Test("the headroom's promise is the planner's: 'already past' counts exactly the files a pass deletes")
    func theHeadroomAgreesWithThePass() {
        let settings = RetentionSettings(maxAge: .oneDay, maxCaptureSize: .unlimited)
        let plan = RetentionPlanner.plan(files: Self.files, settings: settings, now: Self.now, recordingSequence: 3, evidenceSequences: [])
        #expect(Self.headroom(Self.files, .oneDay, .unlimited, recording: 3) == .limits(.noLimit(used: 60 * Self.mib),
                                                                                        .alreadyPast(count: plan.filesToDelete.count),
                                                                                        kept: .none))
    }
}
