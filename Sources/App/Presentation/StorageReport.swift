import Foundation
import Shared

/// What `tunnelvision storage` (and the web app's storage screen) says: the usage, the limits and
/// what they will do, what a pass did — always an answer when a person asked — and the question
/// before deleting everything.
package enum StorageReport {
    package static func usageLines(_ usage: StorageUsage) -> [String] {
        var lines = ["captures  \(ByteCountText.binary(usage.captureBytes)) in \(files(usage.captureFileCount))"]
        var unknown: [String] = []
        if let bytes = usage.historyBytes, let flows = usage.historyFlowCount {
            lines.append("history   \(ByteCountText.binary(bytes)), \(EvidenceDeletion.connections(flows, evidence: usage.auditFlowCount))")
        } else {
            lines.append("history   cannot be read: \(usage.historyProblem ?? "unknown reason")")
            unknown.append("the history's")
        }
        if let bytes = usage.plaintextBytes, let count = usage.plaintextFileCount {
            lines.append("decrypted \(ByteCountText.binary(bytes)) in \(files(count)) (kept decrypted content)")
        } else {
            lines.append("decrypted cannot be read: \(usage.plaintextProblem ?? "unknown reason")")
            unknown.append("the decrypted content's")
        }
        if unknown.isEmpty {
            lines.append("total     \(ByteCountText.binary(usage.totalBytes))")
        } else {
            lines.append("total     at least \(ByteCountText.binary(usage.totalBytes)) (\(unknown.joined(separator: " and ")) size is unknown)")
        }
        return lines
    }

    /// The decrypted content's fixed ceiling in words ("512.0 MiB"), from the one constant.
    package static var plaintextCeiling: String { ByteCountText.binary(RetentionSettings.plaintextByteCeiling) }

    static func files(_ count: Int) -> String { count == 1 ? "1 file" : "\(count) files" }

    /// The limits in plain words and what applying them now would do; `settings` nil when they
    /// could not be read (`problem`).
    static func limitLines(settings: RetentionSettings?, problem: String?, preview: RetentionPreview?) -> [String] {
        guard let settings else {
            return ["limits    cannot be read: \(problem ?? "unknown reason"); nothing is deleted until they can "
                    + "('tunnelvision settings' shows what is wrong)"]
        }
        let size = settings.maxCaptureSize.maxBytes.map { "captures up to \(ByteCountText.binary($0))" } ?? "no size limit"
        let age = settings.maxAge.maxAge.map { "kept \(days($0))" } ?? "no age limit"
        var lines = ["limits    \(size); \(age)"]
        if case .nothing(let why) = preview { lines.append(nothingPlanned(why)) }
        if let plan = preview?.plan {
            if plan.filesToDelete.isEmpty {
                lines.append("applying them now would delete no capture"
                             + (plan.historyCutoff.map { ", and the connections last seen before \(UTCTimestamp.iso8601($0))" } ?? ""))
            } else {
                let count = plan.filesToDelete.count == 1 ? "1 capture" : "\(plan.filesToDelete.count) captures"
                lines.append("applying them now would delete \(count) (\(ByteCountText.binary(plan.bytesReclaimed)))"
                             + (plan.historyCutoff.map { " and the connections last seen before \(UTCTimestamp.iso8601($0))" } ?? ""))
            }
            if plan.sizeCapUnreachable {
                lines.append("the size limit cannot be met while the capture being recorded alone exceeds it")
            }
            if plan.sizeCapHeldByEvidence { lines.append(EvidenceDeletion.sizeLimitHeld(plan.keptEvidence)) }
        }
        return lines
    }

    /// What applying the limits would do when which captures hold audit evidence cannot be read (why).
    static func nothingPlanned(_ why: String) -> String {
        "applying them now would delete nothing, neither captures nor connections: which captures hold audit evidence "
            + "cannot be read (\(why))"
    }

    /// What a pass did, always something: "nothing to delete" is an answer too.
    package static func outcomeLines(_ outcome: RetentionOutcome) -> [String] {
        var lines: [String] = []
        if outcome.didChangeAnything {
            let files = outcome.deletedFiles.count == 1 ? "1 capture" : "\(outcome.deletedFiles.count) captures"
            let flows = outcome.prunedFlows == 1 ? "1 connection" : "\(outcome.prunedFlows) connections"
            lines.append("deleted \(files) (\(ByteCountText.binary(outcome.bytesReclaimed))) and \(flows)")
        } else if outcome.failures.isEmpty {
            lines.append("nothing to delete: everything is within the limits")
        } else {
            lines.append("nothing was deleted")
        }
        if outcome.sizeCapUnreachable {
            lines.append("the size limit is still exceeded: the capture being recorded alone is larger; "
                         + "'tunnelvision captures rotate' starts a new file")
        }
        if outcome.sizeCapHeldByEvidence { lines.append(EvidenceDeletion.sizeLimitStillHeld(outcome.keptEvidence)) }
        return lines
    }

    /// What an action did to the captures and history (when it touched them), then to the decrypted content.
    package static func outcomeLines(_ outcome: StorageOutcome) -> [String] {
        (outcome.captures.map(outcomeLines) ?? []) + plaintextLines(outcome.plaintext)
    }

    /// "decrypted content: deleted 2 files (1.5 MiB) and 40 index entries", and the file kept.
    package static func plaintextLines(_ deletion: PlaintextDeletion) -> [String] {
        let sweep = deletion.sweep
        var lines: [String]
        if deletion.didChangeAnything {
            let rows = deletion.indexRowsDeleted == 1 ? "1 index entry" : "\(deletion.indexRowsDeleted) index entries"
            lines = ["decrypted content: deleted \(files(sweep.deletedFiles.count)) (\(ByteCountText.binary(sweep.bytesReclaimed))) and \(rows)"]
        } else if deletion.failures.isEmpty {
            lines = ["decrypted content: nothing to delete"]
        } else {
            lines = ["decrypted content: nothing was deleted: \(deletion.failures[0])"]
        }
        if let spared = deletion.spared {
            lines.append("decrypted content: kept \(spared.url.lastPathComponent) (\(ByteCountText.binary(spared.byteCount))), "
                         + "the file a running tunnel is writing; it goes at a later sweep once the tunnel has moved on")
        }
        if sweep.ceilingUnreachable {
            lines.append("decrypted content: still over its \(plaintextCeiling) ceiling: "
                         + "the file being written alone is larger")
        }
        return lines
    }

    /// "delete 42 connections, 3 captures (120.5 MiB) and 2 files of decrypted content (3 MiB)? [y/N] ",
    /// and "42 connections (5 of them audit evidence)" when the history holds some.
    package static func clearQuestion(connections: Int?, auditConnections: Int?, files: [CaptureFileInfo],
                                     plaintext: [PlaintextFileInfo]) -> String {
        let flows = connections.map { EvidenceDeletion.connections($0, evidence: auditConnections) }
            ?? "the history (its size cannot be read, nor whether it holds audit evidence)"
        let count = files.count == 1 ? "1 capture" : "\(files.count) captures"
        return "delete \(flows), \(count) (\(ByteCountText.binary(files.reduce(0) { $0 + $1.byteCount }))) and "
            + "\(plaintextScope(plaintext))? [y/N] "
    }

    /// "delete 2 files of decrypted content (3 MiB)? [y/N] "
    package static func clearPlaintextQuestion(_ plaintext: [PlaintextFileInfo]) -> String {
        "delete \(plaintextScope(plaintext)); the history and captures stay? [y/N] "
    }

    /// "2 files of decrypted content (3 MiB)", the file being written left out.
    static func plaintextScope(_ plaintext: [PlaintextFileInfo]) -> String {
        let count = plaintext.count == 1 ? "1 file" : "\(plaintext.count) files"
        return "\(count) of decrypted content (\(ByteCountText.binary(plaintext.reduce(0) { $0 + $1.byteCount })))"
    }

    /// Whether an answer to `clearQuestion` is a yes.
    package static func isYes(_ answer: String?) -> Bool {
        guard let answer else { return false }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }

    static func days(_ seconds: TimeInterval) -> String {
        let days = Int(seconds / 86_400)
        return days == 1 ? "1 day" : "\(days) days"
    }

    // MARK: JSON

    package static func usageJSON(_ usage: StorageUsage, settings: RetentionSettings?, problem: String?,
                                 preview: RetentionPreview?, presence: CapturesTunnelPresence,
                                 card: DecryptedContentCard? = nil) -> String {
        var out = JSONWriter()
        out.beginObject()
        out.beginObject("captures")
        out.size("bytes", usage.captureBytes)
        out.number("files", usage.captureFileCount)
        out.endObject()
        out.beginObject("history")
        out.size("bytes", usage.historyBytes)
        out.number("connections", usage.historyFlowCount)
        out.number("auditConnections", usage.auditFlowCount)
        out.string("problem", usage.historyProblem)
        out.endObject()
        out.beginObject("plaintext")
        out.size("bytes", usage.plaintextBytes)
        out.number("files", usage.plaintextFileCount)
        out.number("ceilingBytes", RetentionSettings.plaintextByteCeiling)
        out.string("ceilingSentence", DecryptedContentCard(AppSettings()).ceilingSentence)
        out.string("problem", usage.plaintextProblem)
        // The Settings card's switch, decided by DecryptedContentCard; absent when the settings cannot be read.
        if let card {
            out.bool("keepSwitchEnabled", card.keepSwitchEnabled)
            out.string("keepHint", card.keepHint)
        }
        out.endObject()
        out.size("totalBytes", usage.totalBytes)
        out.bool("totalComplete", usage.isComplete)
        out.beginObject("limits")
        out.string("maxAge", settings?.maxAge.rawValue)
        out.number("maxCaptureBytes", settings?.maxCaptureSize.maxBytes.map { Int(clamping: $0) })
        out.string("problem", problem)
        out.endObject()
        out.key("plan")
        if let plan = preview?.plan { write(plan, to: &out) } else { out.null() }
        if case .nothing(let why) = preview { out.string("planProblem", nothingPlanned(why)) }
        out.string("tunnel", presence.word)
        out.endObject()
        return out.writer.string
    }

    static func write(_ plan: RetentionPlan, to out: inout JSONWriter) {
        out.beginObject()
        out.numbers("filesToDelete", plan.filesToDelete.map(Int.init))
        out.number("bytesReclaimed", plan.bytesReclaimed)
        out.number("captureBytesAfter", plan.captureBytesAfter)
        out.string("historyCutoff", plan.historyCutoff.map(UTCTimestamp.iso8601))
        out.bool("sizeCapUnreachable", plan.sizeCapUnreachable)
        write(heldByEvidence: plan.sizeCapHeldByEvidence, plan.keptEvidence, to: &out)
        out.endObject()
    }

    /// `"sizeCapHeldByEvidence"` and `"keptEvidence" {"files", "bytes"}`.
    static func write(heldByEvidence: Bool, _ evidence: KeptEvidence, to out: inout JSONWriter) {
        out.bool("sizeCapHeldByEvidence", heldByEvidence)
        out.beginObject("keptEvidence")
        out.numbers("files", evidence.files.map(Int.init))
        out.number("bytes", evidence.bytes)
        out.endObject()
    }

    /// apply and clear: the captures' keys as before, then "plaintext"; clear-plaintext: "plaintext" alone.
    package static func outcomeJSON(_ outcome: StorageOutcome) -> String {
        var out = JSONWriter()
        out.beginObject()
        if let captures = outcome.captures {
            out.numbers("deletedFiles", captures.deletedFiles.map(Int.init))
            out.number("bytesReclaimed", captures.bytesReclaimed)
            out.number("deletedConnections", captures.prunedFlows)
            out.bool("sizeCapUnreachable", captures.sizeCapUnreachable)
            write(heldByEvidence: captures.sizeCapHeldByEvidence, captures.keptEvidence, to: &out)
        }
        let plaintext = outcome.plaintext
        out.beginObject("plaintext")
        out.numbers("deletedFiles", plaintext.sweep.deletedFiles.map(Int.init))
        out.number("bytesReclaimed", plaintext.sweep.bytesReclaimed)
        out.number("deletedIndexEntries", plaintext.indexRowsDeleted)
        out.key("spared")
        if let spared = plaintext.spared {
            out.beginObject()
            out.string("file", spared.url.lastPathComponent)
            out.number("bytes", spared.byteCount)
            out.endObject()
        } else {
            out.null()
        }
        out.bool("ceilingUnreachable", plaintext.sweep.ceilingUnreachable)
        out.strings("failures", plaintext.failures)
        out.endObject()
        out.strings("failures", outcome.failures)
        out.bool("changedAnything", outcome.didChangeAnything)
        out.strings("lines", outcomeLines(outcome))
        out.endObject()
        return out.writer.string
    }
}
