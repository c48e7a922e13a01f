import Foundation
import Shared

/// The dashboard when standard output is not a terminal: one line a second, in words or as one
/// JSON object per line (`time`, `bytesIn`, `bytesOut`, the rates of the last whole second,
/// `packets`, `dropped` with `droppedNote` (what it means for the counters, or null), `attached`, the state's identifier (with the `problem` when the feed is
/// unreadable), and `topTalkers`: the busiest remote hosts of the last minute, as the terminal
/// dashboard lists them, each with its name and the history's row its entry opens —
/// `LiveDashboardTalker` decides both).
package enum LiveDashboardLine {
    package static func text(_ dashboard: LiveDashboard, at now: Date) -> String {
        let state: String = switch dashboard.state {
        case .live: "live"
        case .noTunnel: "no tunnel, waiting"
        case .unreadable(let error): "cannot read the live feed (\(error)), waiting"
        case .sessionEnded: "session ended, waiting for a new one"
        }
        return "\(UTCTimestamp.iso8601(now)) \(dashboard.ratesLine); \(dashboard.countersLine); \(state)"
    }

    package static func json(_ dashboard: LiveDashboard, at now: Date) -> String {
        let snapshot = dashboard.snapshot
        let rate = dashboard.currentRate
        var out = JSONWriter(capacity: 256)
        out.beginObject()
        out.string("time", UTCTimestamp.iso8601(now))
        out.size("bytesIn", snapshot.bytesIn)
        out.size("bytesOut", snapshot.bytesOut)
        out.size("bytesInPerSecond", perSecond: rate?.bytesInPerSecond ?? 0)
        out.size("bytesOutPerSecond", perSecond: rate?.bytesOutPerSecond ?? 0)
        out.number("packets", snapshot.packetCount)
        out.number("connections", snapshot.connectionsSeen)
        out.number("dropped", snapshot.droppedRecords)
        out.string("droppedNote", dashboard.droppedNote)
        out.bool("attached", snapshot.isAttached)
        out.string("state", identifier(dashboard.state))
        if case .unreadable(let error) = dashboard.state { out.string("problem", error.description) }
        if let session = snapshot.generation { out.number("session", session) }
        out.beginArray("topTalkers")
        for row in dashboard.talkers(limit: snapshot.topTalkers.count) {
            let talker = row.talker
            out.beginObject()
            out.string("host", "\(talker.remote)")
            out.string("name", row.name)
            out.number("flow", row.flowID.map { Int($0) })
            out.number("bytes", talker.bytesIn &+ talker.bytesOut)
            out.size("bytesIn", talker.bytesIn)
            out.size("bytesOut", talker.bytesOut)
            out.endObject()
        }
        out.endArray()
        out.endObject()
        return out.writer.string
    }

    /// Stable identifiers for scripts.
    static func identifier(_ state: LiveDashboardState) -> String {
        switch state {
        case .live: "live"
        case .noTunnel: "noTunnel"
        case .unreadable: "unreadable"
        case .sessionEnded: "sessionEnded"
        }
    }
}
