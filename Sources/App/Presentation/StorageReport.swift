import Foundation
import Shared

/// What `tunnelvision storage` (and the web app's storage screen) says: the usage, the limits and
/// what they will do, what a pass did — always an answer when a person asked — and the question
/// before deleting everything.
public enum StorageReport {
    public static func usageLines(_ usage: StorageUsage) -> [String] {
        let files = usage.captureFileCount == 1 ? "1 file" : "\(usage.captureFileCount) files"
        var lines = ["captures  \(RunSummary.bytes(usage.captureBytes)) in \(files)"]
        if let bytes = usage.historyBytes, let flows = usage.historyFlowCount {
            lines.append("history   \(RunSummary.bytes(bytes)), \(flows == 1 ? "1 connection" : "\(flows) connections")")
            lines.append("total     \(RunSummary.bytes(usage.totalBytes))")
        } else {
            lines.append("history   cannot be read: \(usage.historyProblem ?? "unknown reason")")
            lines.append("total     at least \(RunSummary.bytes(usage.totalBytes)) (the captures; the history's size is unknown)")
        }
        return lines
    }

    /// The limits in plain words and what applying them now would do; `settings` nil when they
    /// could not be read (`problem`).
    public static func limitLines(settings: RetentionSettings?, problem: String?, plan: RetentionPlan?) -> [String] {
        guard let settings else {
            return ["limits    cannot be read: \(problem ?? "unknown reason"); nothing is deleted until they can "
                    + "('tunnelvision settings' shows what is wrong)"]
        }
        let size = settings.maxCaptureSize.maxBytes.map { "captures up to \(RunSummary.bytes($0))" } ?? "no size limit"
        let age = settings.maxAge.maxAge.map { "kept \(days($0))" } ?? "no age limit"
        var lines = ["limits    \(size); \(age)"]
        if let plan {
            if plan.filesToDelete.isEmpty {
                lines.append("applying them now would delete no capture"
                             + (plan.historyCutoff.map { ", and the connections last seen before \(UTCTimestamp.iso8601($0))" } ?? ""))
            } else {
                let count = plan.filesToDelete.count == 1 ? "1 capture" : "\(plan.filesToDelete.count) captures"
                lines.append("applying them now would delete \(count) (\(RunSummary.bytes(plan.bytesReclaimed)))"
                             + (plan.historyCutoff.map { " and the connections last seen before \(UTCTimestamp.iso8601($0))" } ?? ""))
            }
            if plan.sizeCapUnreachable {
                lines.append("the size limit cannot be met while the capture being recorded alone exceeds it")
            }
        }
        return lines
    }

    /// What a pass did, always something: "nothing to delete" is an answer too.
    public static func outcomeLines(_ outcome: RetentionOutcome) -> [String] {
        var lines: [String] = []
        if outcome.didChangeAnything {
            let files = outcome.deletedFiles.count == 1 ? "1 capture" : "\(outcome.deletedFiles.count) captures"
            let flows = outcome.prunedFlows == 1 ? "1 connection" : "\(outcome.prunedFlows) connections"
            lines.append("deleted \(files) (\(RunSummary.bytes(outcome.bytesReclaimed))) and \(flows)")
        } else if outcome.failures.isEmpty {
            lines.append("nothing to delete: everything is within the limits")
        } else {
            lines.append("nothing was deleted")
        }
        if outcome.sizeCapUnreachable {
            lines.append("the size limit is still exceeded: the capture being recorded alone is larger; "
                         + "'tunnelvision captures rotate' starts a new file")
        }
        return lines
    }

    /// "delete 42 connections and 3 captures (120.5 MiB)? [y/N] "
    public static func clearQuestion(connections: Int?, files: [CaptureFileInfo]) -> String {
        let flows = connections.map { $0 == 1 ? "1 connection" : "\($0) connections" } ?? "the history (its size cannot be read)"
        let count = files.count == 1 ? "1 capture" : "\(files.count) captures"
        return "delete \(flows) and \(count) (\(RunSummary.bytes(files.reduce(0) { $0 + $1.byteCount })))? [y/N] "
    }

    /// Whether an answer to `clearQuestion` is a yes.
    public static func isYes(_ answer: String?) -> Bool {
        guard let answer else { return false }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }

    static func days(_ seconds: TimeInterval) -> String {
        let days = Int(seconds / 86_400)
        return days == 1 ? "1 day" : "\(days) days"
    }

    // MARK: JSON

    public static func usageJSON(_ usage: StorageUsage, settings: RetentionSettings?, problem: String?,
                                 plan: RetentionPlan?, presence: CapturesTunnelPresence) -> String {
        var out = JSONWriter()
        out.beginObject()
        out.beginObject("captures")
        out.number("bytes", usage.captureBytes)
        out.number("files", usage.captureFileCount)
        out.endObject()
        out.beginObject("history")
        out.number("bytes", usage.historyBytes.map { Int(clamping: $0) })
        out.number("connections", usage.historyFlowCount)
        out.string("problem", usage.historyProblem)
        out.endObject()
        out.number("totalBytes", usage.totalBytes)
        out.bool("totalComplete", usage.isComplete)
        out.beginObject("limits")
        out.string("maxAge", settings?.maxAge.rawValue)
        out.number("maxCaptureBytes", settings?.maxCaptureSize.maxBytes.map { Int(clamping: $0) })
        out.string("problem", problem)
        out.endObject()
        out.key("plan")
        if let plan { write(plan, to: &out) } else { out.null() }
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
        out.endObject()
    }

    public static func outcomeJSON(_ outcome: RetentionOutcome) -> String {
        var out = JSONWriter()
        out.beginObject()
        out.numbers("deletedFiles", outcome.deletedFiles.map(Int.init))
        out.number("bytesReclaimed", outcome.bytesReclaimed)
        out.number("deletedConnections", outcome.prunedFlows)
        out.strings("failures", outcome.failures)
        out.bool("sizeCapUnreachable", outcome.sizeCapUnreachable)
        out.bool("changedAnything", outcome.didChangeAnything)
        out.strings("lines", outcomeLines(outcome))
        out.endObject()
        return out.writer.string
    }
}
