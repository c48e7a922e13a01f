import Foundation
import Shared

/// The JSON documents of `tunnelvision captures` (and the web app's captures screen): one object
/// each, instants in UTC, sizes in bytes.
package enum CapturesJSON {
    package static func listing(rows: [CapturesPresentation.Row], settings: RetentionSettings?, headroom: CaptureHeadroom,
                               presence: CapturesTunnelPresence) -> String {
        var out = JSONWriter()
        out.beginObject()
        out.beginArray("captures")
        for row in rows {
            out.beginObject()
            out.number("sequence", Int(row.sequence))
            out.string("name", row.name)
            out.size("bytes", row.byteCount)
            out.string("lastWritten", row.lastWritten.map(UTCTimestamp.iso8601))
            out.bool("recording", row.isRecording)
            out.bool("evidence", row.holdsEvidence)
            out.endObject()
        }
        out.endArray()
        out.number("count", rows.count)
        out.number("bytes", rows.reduce(UInt64(0)) { $0 + $1.byteCount })
        out.number("sizeLimit", settings?.maxCaptureSize.maxBytes.map { Int(clamping: $0) })
        out.beginObject("roomLeft")
        headroom.write(to: &out)
        out.endObject()
        out.string("tunnel", presence.word)
        out.endObject()
        return out.writer.string
    }

    package static func removal(deleted: [UInt32], failed: [(sequence: UInt32, reason: String)]) -> String {
        var out = JSONWriter()
        out.beginObject()
        out.numbers("deleted", deleted.map(Int.init))
        out.beginArray("failed")
        for failure in failed {
            out.beginObject()
            out.number("sequence", Int(failure.sequence))
            out.string("reason", failure.reason)
            out.endObject()
        }
        out.endArray()
        out.string("note", deleted.isEmpty ? nil : CapturesPresentation.deletionNote)
        out.endObject()
        return out.writer.string
    }
}

extension CapturesTunnelPresence {
    /// The stable word for scripts.
    package var word: String {
        switch self {
        case .live: "live"
        case .absent: "absent"
        case .unknown: "unknown"
        }
    }
}

extension CaptureHeadroom {
    /// `"size"` {"state", "used", "limit", "left"/"recording"/"evidenceBytes"}, `"expiry"` {"state",
    /// "date"/"count"}, `"keptEvidence"` {"files", "bytes"}, and `"lines"` as a person reads them;
    /// `"state": "neitherLimitSet"`, `"limitsUnreadable"` or `"evidenceUnreadable"` alone.
    func write(to out: inout JSONWriter) {
        switch self {
        case .limitsUnreadable(let reason):
            out.string("state", "limitsUnreadable")
            out.string("reason", reason)
        case .evidenceUnreadable(let reason):
            out.string("state", "evidenceUnreadable")
            out.string("reason", reason)
        case .neitherLimitSet(let used):
            out.string("state", "neitherLimitSet")
            out.number("used", used)
        case let .limits(size, expiry, kept):
            out.string("state", "limits")
            out.beginObject("size")
            switch size {
            case let .roomToSpare(left, used, limit):
                out.string("state", "roomToSpare"); out.number("left", left); out.number("used", used); out.number("limit", limit)
            case let .limitFull(used, limit):
                out.string("state", "limitFull"); out.number("used", used); out.number("limit", limit)
            case let .unmeetable(recording, limit):
                out.string("state", "unmeetable"); out.number("recording", recording); out.number("limit", limit)
            case let .heldByEvidence(evidence, limit):
                out.string("state", "heldByEvidence"); out.number("evidenceBytes", evidence.bytes); out.number("limit", limit)
            case .noLimit(let used):
                out.string("state", "noLimit"); out.number("used", used)
            }
            out.endObject()
            out.beginObject("expiry")
            switch expiry {
            case .oldestGoes(let date): out.string("state", "oldestGoes"); out.string("date", UTCTimestamp.iso8601(date))
            case .alreadyPast(let count): out.string("state", "alreadyPast"); out.number("count", count)
            case .noDateYet: out.string("state", "noDateYet")
            case .off: out.string("state", "off")
            }
            out.endObject()
            out.beginObject("keptEvidence")
            out.numbers("files", kept.files.map(Int.init))
            out.number("bytes", kept.bytes)
            out.endObject()
        }
        out.strings("lines", lines)
    }
}
