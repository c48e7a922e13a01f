import Shared

/// The Dashboard's monitoring control: the state (the controller's, so a failure stays until the
/// person acts), the sentence that says it, what the person may do now, and the service's record.
package struct MonitoringScreen: Sendable {
    package let state: TunnelState
    /// What Start starts.
    package let target: MonitoringTarget
    /// nil when the directory's service files could not be read.
    package let status: ServiceStatusScreen?

    package init(state: TunnelState, target: MonitoringTarget, status: ServiceStatusScreen?) {
        self.state = state
        self.target = target
        self.status = status
    }

    /// What a screen offers: Start (Try again after a failure) and Stop, never while the service
    /// is on its way up or down, and no Start while a `run` records here (it would be refused).
    package enum Action: String, Sendable { case start, tryAgain, stop }

    package var actions: [Action] {
        let running = status?.report.runningPID != nil
        switch state {
        case .notInstalled, .off: return status?.runRecording == true || running ? [] : [.start]
        case .starting, .stopping: return []
        case .live: return [.stop]
        case .failed: return running ? [.tryAgain, .stop] : [.tryAgain]
        }
    }

    package var sentence: String {
        switch state {
        case .notInstalled, .off:
            if status?.runRecording == true { return "A 'tunnelvision run' is recording here; it stops with its command." }
            return "Start monitoring watches \(target)\(target.isPassive ? "," : "") until you stop it."
        case .starting:
            return target.isPassive ? "Starting: opening a capture on \(target)…" : "Starting: moving \(target)'s routes through the tunnel…"
        case .live: return status?.headline.capitalizedFirst.appending(".") ?? "Monitoring is on."
        case .stopping: return target.isPassive ? "Stopping: closing the capture…" : "Stopping: giving the routes back…"
        case .failed(let error): return "\(error)".capitalizedFirst + "."
        }
    }

    /// `{"state", "sentence", "actions": [...], "target": {...}, "targetDescription", "status": <status --json> or null}`.
    package var json: String {
        var out = JSONWriter()
        out.beginObject()
        out.string("state", state.word)
        out.string("sentence", sentence)
        out.strings("actions", actions.map(\.rawValue))
        out.key("target")
        target.write(to: &out)
        out.string("targetDescription", target.description)
        out.key("status")
        if let status { status.write(to: &out) } else { out.null() }
        out.endObject()
        return out.writer.string
    }
}

private extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
