import Foundation
import Shared

/// What `tunnelvision status` (and a second `up`) says about the service of one data directory,
/// as text and as one JSON object.
package struct ServiceStatusScreen: Sendable {
    package let report: ServiceReport
    package let dataDirectory: String
    /// A `run` records into the directory through its control socket, while no service runs there.
    package let runRecording: Bool

    package init(report: ServiceReport, dataDirectory: String, runRecording: Bool) {
        self.report = report
        self.dataDirectory = dataDirectory
        self.runRecording = runRecording
    }

    package var state: TunnelState { TunnelStatePolicy.state(for: report.status) }

    /// The record's facts while a service lives (a dead one's record says only what it was).
    private var running: ServiceRecord? { report.runningPID == nil ? nil : report.record }

    /// One line: what runs, or that nothing does.
    package var headline: String {
        if let record = running {
            // A watched interface is its own device: naming it twice says nothing ("…, passively, is live").
            let device = record.target.isPassive ? "," : record.device.map { " through \($0)" } ?? ""
            return "monitoring \(record.target)\(device) is \(state.word) (service pid \(record.pid), started "
                + "\(UTCTimestamp.iso8601(record.startedAt)))"
        }
        if runRecording { return "no service runs on \(dataDirectory); a 'tunnelvision run' is recording there" }
        return "no service runs on \(dataDirectory)"
    }

    /// Said when `up` finds a service already running.
    package var alreadyRunning: String {
        "\(headline); 'tunnelvision down\(dataDirectoryOption)' stops it"
    }

    private var dataDirectoryOption: String { " --data-dir \(dataDirectory)" }

    package var text: String {
        var lines = [headline]
        if let record = running, let changes = record.networkChanges {
            lines.append("its network changed \(changes) time\(changes == 1 ? "" : "s"), followed \(record.networkChangesLearned ?? 0); "
                         + "last: \(record.lastNetworkChange ?? "not said")")
        }
        if let note = report.note { lines.append(note) }
        lines.append("data directory: \(dataDirectory)")
        return lines.joined(separator: "\n")
    }

    /// `{"state", "status", "dataDirectory", "service": {…} or null, "run", "note"}`: `state` is
    /// what a screen shows (live, starting, stopping, off), `status` the service's transport word;
    /// `service` is the running service's record (`pid`, `target` {`kind`, `name`/`pid`},
    /// `targetDescription`, `device`, `inspect`, `phase`, `startedAt`), `lastService` what the
    /// record of one that ended says.
    package var json: String {
        var out = JSONWriter()
        write(to: &out)
        return out.writer.string
    }

    /// The same object, inside another document.
    package func write(to out: inout JSONWriter) {
        out.beginObject()
        out.string("state", state.word)
        out.string("status", report.status.rawValue)
        out.string("dataDirectory", dataDirectory)
        if let record = running {
            out.key("service")
            Self.write(record, to: &out)
        } else {
            out.key("service")
            out.null()
        }
        if let record = report.record, running == nil {
            out.key("lastService")
            Self.write(record, to: &out)
        }
        out.bool("run", runRecording)
        out.string("note", report.note)
        out.endObject()
    }

    private static func write(_ record: ServiceRecord, to out: inout JSONWriter) {
        out.beginObject()
        out.number("pid", Int(record.pid))
        out.key("target")
        record.target.write(to: &out)
        out.string("targetDescription", record.target.description)
        out.string("device", record.device)
        out.bool("inspect", record.inspect)
        out.string("phase", record.phase.rawValue)
        out.string("startedAt", UTCTimestamp.iso8601(record.startedAt))
        out.string("problem", record.problem)
        out.number("networkChanges", record.networkChanges.map { Int(clamping: $0) })
        out.number("networkChangesLearned", record.networkChangesLearned.map { Int(clamping: $0) })
        out.string("lastNetworkChange", record.lastNetworkChange)
        out.endObject()
    }
}

extension TunnelState {
    /// The stable word for scripts and screens.
    package var word: String {
        switch self {
        case .notInstalled: "notInstalled"
        case .off: "off"
        case .starting: "starting"
        case .live: "live"
        case .stopping: "stopping"
        case .failed: "failed"
        }
    }
}

extension MonitoringTarget {
    /// `{"kind", "name" | "pid"}`, the service record's own form.
    func write(to out: inout JSONWriter) {
        out.beginObject()
        out.string("kind", kind.rawValue)
        if let name { out.string("name", name) }
        if let pid { out.number("pid", Int(pid)) }
        out.endObject()
    }
}
