import Foundation
import Shared

/// Room left for captures against the retention limits (screens.md, "Captures" → Room left),
/// through the same `RetentionPlanner` as the cleanup itself, over the same audit evidence, so
/// what it promises is what a pass does.
package enum CaptureHeadroom: Sendable, Equatable {
    /// Against the size limit.
    package enum Size: Sendable, Equatable {
        /// `left` more bytes fit before the oldest captures go; with `used` they fall short of
        /// `limit` by the room the capture being recorded still has to grow into.
        case roomToSpare(left: UInt64, used: UInt64, limit: UInt64)
        /// At or over the limit: the oldest go at the next pass (a rotation, `storage apply`).
        case limitFull(used: UInt64, limit: UInt64)
        /// Cannot be met: the capture being recorded alone exceeds the limit.
        case unmeetable(recording: UInt64, limit: UInt64)
        /// Cannot be met: the captures holding audit evidence, which no limit deletes, keep them over it.
        case heldByEvidence(KeptEvidence, limit: UInt64)
        case noLimit(used: UInt64)
    }

    /// Against the age limit.
    package enum Expiry: Sendable, Equatable {
        /// The oldest capture goes then.
        case oldestGoes(Date)
        /// This many are past the limit already and go at the next pass.
        case alreadyPast(count: Int)
        /// None can expire yet: the newest is kept until a newer one exists, and the file being
        /// recorded is never deleted (or nothing dates the files).
        case noDateYet
        case off
    }

    /// Against the limits, with the captures audit evidence keeps from both (none, mostly).
    case limits(Size, Expiry, kept: KeptEvidence)
    /// No size and no age limit: kept until deleted by hand.
    case neitherLimitSet(used: UInt64)
    /// The limits could not be read (why): the comparison is not shown.
    case limitsUnreadable(String)
    /// Which captures hold audit evidence could not be read (why): no pass deletes anything until
    /// it can, so the comparison is not shown.
    case evidenceUnreadable(String)

    package static func assess(files: [CaptureFileInfo], settings reading: Result<RetentionSettings, SettingsError>,
                              recordingSequence: UInt32?, evidence: RetentionPass.Evidence, now: Date) -> CaptureHeadroom {
        let settings: RetentionSettings
        switch reading {
        case .success(let read): settings = read
        case .failure(let problem): return .limitsUnreadable(problem.description)
        }
        let used = files.reduce(UInt64(0)) { $0 + $1.byteCount }
        if settings.isUnlimited { return .neitherLimitSet(used: used) }
        let held: Set<UInt32>
        switch evidence {
        case .files(let read): held = read
        case .unreadable(let reason): return .evidenceUnreadable(reason)
        }
        let plan = { (settings: RetentionSettings) in
            RetentionPlanner.plan(files: files, settings: settings, now: now, recordingSequence: recordingSequence, evidenceSequences: held)
        }
        let sizeOnly = plan(RetentionSettings(maxAge: .unlimited, maxCaptureSize: settings.maxCaptureSize))
        return .limits(size(files: files, settings: settings, recordingSequence: recordingSequence, plan: sizeOnly, used: used),
                       expiry(files: files, settings: settings, recordingSequence: recordingSequence, evidence: held,
                              plan: plan(RetentionSettings(maxAge: settings.maxAge, maxCaptureSize: .unlimited))),
                       kept: sizeOnly.keptEvidence)
    }

    /// `plan`: the size limit's alone.
    static func size(files: [CaptureFileInfo], settings: RetentionSettings, recordingSequence: UInt32?, plan: RetentionPlan,
                     used: UInt64) -> Size {
        guard let limit = settings.maxCaptureSize.maxBytes else { return .noLimit(used: used) }
        if plan.sizeCapUnreachable {
            return .unmeetable(recording: files.first { $0.sequence == recordingSequence }?.byteCount ?? used, limit: limit)
        }
        if plan.sizeCapHeldByEvidence { return .heldByEvidence(plan.keptEvidence, limit: limit) }
        // The capture being recorded counts at the size it grows to, as the pass counts it.
        let counted = used + RetentionPlanner.recordingGrowth(files: files, recordingSequence: recordingSequence)
        return counted >= limit ? .limitFull(used: used, limit: limit) : .roomToSpare(left: limit - counted, used: used, limit: limit)
    }

    /// `plan`: the age limit's alone. Evidence never expires, so it dates nothing.
    static func expiry(files: [CaptureFileInfo], settings: RetentionSettings, recordingSequence: UInt32?, evidence: Set<UInt32>,
                       plan: RetentionPlan) -> Expiry {
        guard let maxAge = settings.maxAge.maxAge else { return .off }
        if !plan.filesToDelete.isEmpty { return .alreadyPast(count: plan.filesToDelete.count) }
        let ordered = files.sorted { $0.sequence < $1.sequence }
        let dates = ordered.indices.dropLast().compactMap { index -> Date? in
            guard ordered[index].sequence != recordingSequence, !evidence.contains(ordered[index].sequence) else { return nil }
            return RetentionPlanner.newestRecordBound(of: ordered[index], successor: ordered[index + 1])
        }
        guard let oldest = dates.min() else { return .noDateYet }
        return .oldestGoes(oldest.addingTimeInterval(maxAge))
    }

    /// The lines a person reads: room left first, then what happens at the limit.
    package var lines: [String] {
        switch self {
        case .limitsUnreadable(let reason):
            return ["the retention limits cannot be read, so room left is not shown: \(reason)"]
        case .evidenceUnreadable(let reason):
            return ["which captures hold audit evidence cannot be read, so room left is not shown and retention deletes "
                    + "nothing until it can: \(reason)"]
        case .neitherLimitSet(let used):
            return ["neither limit set: \(ByteCountText.binary(used)) of captures, kept with the history until deleted by hand"]
        case let .limits(size, expiry, kept):
            // Held by evidence, the size line already says what it keeps.
            let sizeSaysIt = if case .heldByEvidence = size { true } else { false }
            return [Self.line(size), Self.line(expiry)] + (kept.files.isEmpty || sizeSaysIt ? [] : [EvidenceDeletion.keptByLimits(kept)])
        }
    }

    static func line(_ size: Size) -> String {
        switch size {
        case let .roomToSpare(left, used, limit):
            "room left: \(ByteCountText.binary(left)) (\(ByteCountText.binary(used)) of the \(ByteCountText.binary(limit)) limit"
                + (used + left < limit ? ", \(ByteCountText.binary(limit - used - left)) kept for the capture being recorded to grow into" : "")
                + "); past it the oldest captures are deleted"
        case let .limitFull(used, limit):
            "limit full: \(ByteCountText.binary(used)) of \(ByteCountText.binary(limit)); the oldest captures go at the next rotation "
                + "or 'tunnelvision storage apply'"
        case let .unmeetable(recording, limit):
            "the \(ByteCountText.binary(limit)) limit cannot be met: the capture being recorded alone holds \(ByteCountText.binary(recording)); "
                + "it can go once the tunnel starts a new file ('tunnelvision captures rotate')"
        case let .heldByEvidence(kept, limit):
            "the \(ByteCountText.binary(limit)) limit cannot be met: \(EvidenceDeletion.keptClause(kept))"
        case .noLimit(let used):
            "no size limit: \(ByteCountText.binary(used)) of captures"
        }
    }

    static func line(_ expiry: Expiry) -> String {
        switch expiry {
        case .oldestGoes(let date): "the oldest capture expires \(UTCTimestamp.iso8601(date))"
        case .alreadyPast(let count):
            "\(count == 1 ? "1 capture is" : "\(count) captures are") past the age limit and go at the next pass"
        case .noDateYet: "no capture can expire yet: the newest is kept until a newer one exists"
        case .off: "captures do not expire (no age limit)"
        }
    }
}
