import Foundation
import Testing
@testable import App
import Shared

/// Room left against the limits when audit evidence is in the captures (audit.md § Retention):
/// the evidence is kept by both, so it counts against the size limit, dates nothing, and can be
/// what keeps the limit out of reach — said as such, apart from the file being recorded.
@Suite struct CaptureHeadroomTests {
    // The made-up listings of the captures screen's own tests.
    static let now = CapturesPresentationTests.now
    static let day = CapturesPresentationTests.day
    static let mib = CapturesPresentationTests.mib

    static func file(_ sequence: UInt32, mib: UInt64, startedDaysAgo: Double, writtenDaysAgo: Double) -> CaptureFileInfo {
        CapturesPresentationTests.file(sequence, mib: mib, startedDaysAgo: startedDaysAgo, writtenDaysAgo: writtenDaysAgo)
    }

    static func headroom(_ files: [CaptureFileInfo], _ age: RetentionAge, _ size: RetentionSize, recording: UInt32?,
                         evidence: RetentionPass.Evidence) -> CaptureHeadroom {
        CaptureHeadroom.assess(files: files, settings: .success(RetentionSettings(maxAge: age, maxCaptureSize: size)),
                               recordingSequence: recording, evidence: evidence, now: now)
    }

    /// Files 1 and 2 closed, 3 being recorded.
    static func files(evidenceMiB: UInt64, otherMiB: UInt64, recordingMiB: UInt64) -> [CaptureFileInfo] {
        [file(1, mib: evidenceMiB, startedDaysAgo: 4, writtenDaysAgo: 3), file(2, mib: otherMiB, startedDaysAgo: 3, writtenDaysAgo: 2),
         file(3, mib: recordingMiB, startedDaysAgo: 2, writtenDaysAgo: 0)]
    }

    @Test("evidence that keeps the captures over the size limit is its own state, with the sentence that says so and what releases it")
    func theSizeLimitHeldByEvidence() {
        // 200 MiB of evidence, 100 MiB that goes, and the file being recorded counted at 64 MiB: 264 > 256.
        let files = Self.files(evidenceMiB: 200, otherMiB: 100, recordingMiB: 4)
        let kept = KeptEvidence(files: [1], bytes: 200 * Self.mib)
        let headroom = Self.headroom(files, .unlimited, .megabytes256, recording: 3, evidence: .files([1]))
        #expect(headroom == .limits(.heldByEvidence(kept, limit: 256 * Self.mib), .off, kept: kept))
        #expect(headroom.lines == ["the 256.0 MiB limit cannot be met: 1 capture (200.0 MiB) holds audit evidence; "
                                   + "delete its audit session to release it",
                                   "captures do not expire (no age limit)"])
        // The file being recorded alone over the limit stays its own case, evidence or not.
        let huge = Self.files(evidenceMiB: 10, otherMiB: 10, recordingMiB: 300)
        guard case .limits(.unmeetable(let recording, _), _, _) = Self.headroom(huge, .unlimited, .megabytes256, recording: 3,
                                                                                 evidence: .files([1])) else {
            Issue.record("not unmeetable")
            return
        }
        #expect(recording == 300 * Self.mib)
        // No evidence: the same files fit once file 2 goes.
        #expect(Self.headroom(files, .unlimited, .megabytes256, recording: 3, evidence: .files([]))
                == .limits(.limitFull(used: 304 * Self.mib, limit: 256 * Self.mib), .off, kept: .none))
    }

    @Test("evidence within the limit counts against it, and a line says the limits keep it until its session is deleted")
    func evidenceWithinTheLimit() {
        let files = Self.files(evidenceMiB: 30, otherMiB: 20, recordingMiB: 10)
        let headroom = Self.headroom(files, .unlimited, .megabytes256, recording: 3, evidence: .files([1, 2]))
        let kept = KeptEvidence(files: [1, 2], bytes: 50 * Self.mib)
        // 60 MiB used, the file being recorded still growing by 54 MiB.
        #expect(headroom == .limits(.roomToSpare(left: 142 * Self.mib, used: 60 * Self.mib, limit: 256 * Self.mib), .off, kept: kept))
        #expect(headroom.lines.last == "2 captures (50.0 MiB) hold audit evidence: neither limit deletes them until their audit session is deleted")
    }

    @Test("evidence never expires: it dates nothing, and 'already past' counts only what a pass deletes")
    func evidenceNeverExpires() {
        let files = Self.files(evidenceMiB: 30, otherMiB: 20, recordingMiB: 10)
        let kept = KeptEvidence(files: [1], bytes: 30 * Self.mib)
        // File 1 (evidence) ended 3 days ago, file 2 two days ago: a week's limit takes file 2 in 5 days.
        #expect(Self.headroom(files, .oneWeek, .unlimited, recording: 3, evidence: .files([1]))
                == .limits(.noLimit(used: 60 * Self.mib), .oldestGoes(Self.now.addingTimeInterval(5 * Self.day)), kept: kept))
        // A day's limit would take both; only file 2 goes.
        let settings = RetentionSettings(maxAge: .oneDay, maxCaptureSize: .unlimited)
        let plan = RetentionPlanner.plan(files: files, settings: settings, now: Self.now, recordingSequence: 3, evidenceSequences: [1])
        #expect(plan.filesToDelete == [2])
        #expect(Self.headroom(files, .oneDay, .unlimited, recording: 3, evidence: .files([1]))
                == .limits(.noLimit(used: 60 * Self.mib), .alreadyPast(count: 1), kept: kept))
        // Nothing but evidence left to date: no date yet, and the line says why.
        let all = Self.headroom(files, .oneWeek, .unlimited, recording: 3, evidence: .files([1, 2]))
        #expect(all == .limits(.noLimit(used: 60 * Self.mib), .noDateYet, kept: KeptEvidence(files: [1, 2], bytes: 50 * Self.mib)))
        #expect(all.lines.count == 3 && all.lines[2].hasPrefix("2 captures (50.0 MiB) hold audit evidence"))
    }

    @Test("which captures hold evidence cannot be read: room left is not shown, and it says no pass deletes anything")
    func unreadableEvidence() {
        let files = Self.files(evidenceMiB: 30, otherMiB: 20, recordingMiB: 10)
        let headroom = Self.headroom(files, .oneWeek, .megabytes256, recording: 3, evidence: .unreadable("the history is closed"))
        #expect(headroom == .evidenceUnreadable("the history is closed"))
        #expect(headroom.lines == ["which captures hold audit evidence cannot be read, so room left is not shown and retention deletes "
                                   + "nothing until it can: the history is closed"])
        // With neither limit nothing is deleted anyway: the evidence does not matter.
        #expect(Self.headroom(files, .unlimited, .unlimited, recording: 3, evidence: .unreadable("closed")) == .neitherLimitSet(used: 60 * Self.mib))
    }

    @Test("the JSON names the state and the kept evidence, for the screen")
    func theJSON() {
        let files = Self.files(evidenceMiB: 200, otherMiB: 100, recordingMiB: 4)
        let rows = CapturesPresentation.rows(files: files, recordingSequence: 3, evidence: .files([1]))
        let json = CapturesJSON.listing(rows: rows, settings: RetentionSettings(maxAge: .unlimited, maxCaptureSize: .megabytes256),
                                        headroom: Self.headroom(files, .unlimited, .megabytes256, recording: 3, evidence: .files([1])),
                                        presence: .live)
        #expect(json.contains(#""state":"heldByEvidence","evidenceBytes":\#(200 * Self.mib),"limit":\#(256 * Self.mib)"#))
        #expect(json.contains(#""keptEvidence":{"files":[1],"bytes":\#(200 * Self.mib)}"#))
        #expect(json.contains(#""recording":false,"evidence":true"#) && json.contains(#""recording":true,"evidence":false"#))
        let unreadable = CapturesJSON.listing(rows: CapturesPresentation.rows(files: files, recordingSequence: 3, evidence: .unreadable("x")),
                                              settings: nil, headroom: .evidenceUnreadable("x"), presence: .live)
        #expect(unreadable.contains(#""evidence":null"#) && unreadable.contains(#""state":"evidenceUnreadable","reason":"x""#))
    }
}
