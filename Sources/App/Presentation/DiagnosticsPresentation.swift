import Shared

/// The decisions of the diagnostics screen (seeds/000 § Session diagnostics): four verdicts, each
/// answering its own question from the counters of one running session, in tables whose order is
/// the decision — several counters are non-zero at once in a long session, and only one conclusion
/// may head each question. Pure: the counters in, the verdicts and their sentences out.
package enum DiagnosticsPresentation {
    /// Is looking inside secure traffic working?
    package enum InspectionVerdict: Sendable, Equatable {
        /// No tunnel is live: nothing to diagnose, the counters are per session.
        case notMonitoring
        /// The reply carried no relay (it was stopping): absence, never zeroes.
        case unavailable
        /// Inspection is off, or nothing qualified — also while this build reports no inspection
        /// counters at all (`RelayStats.inspection` absent).
        case idle
        /// Candidates and not one termination: `named` when TLS ClientHellos were read (the
        /// symptom), not when the streams were not TLS (normal).
        case neverTerminates(named: Bool)
        case working
        /// Decrypting, and some connections broken by the attempt: it works, and it costs some.
        case workingWithBreakage
        /// Taken over and broken, none decrypted (refusals aside): those connections are lost.
        case failing
        /// Every outcome was a client refusing our certificate: left alone (ADR 0003).
        case pinnedOnly
        /// Taken over, no outcome yet: outcomes arrive when a flow closes.
        case starting
    }

    /// The inspection verdict, checked in the seed's order — except that a connection broken by
    /// inspection is never hidden: it qualifies "working" and heads off "only refusals".
    package static func verdict(for stats: TunnelStats?, isMonitoring: Bool) -> InspectionVerdict {
        guard isMonitoring else { return .notMonitoring }
        guard let relay = stats?.relay else { return .unavailable }
        guard let inspection = relay.inspection, inspection.inspectionCandidates > 0 else { return .idle }
        // A ClientHello read is what gives a TLS stream its name; pinnedHostSkips cannot precede a
        // termination, so it never separates the two cases.
        if inspection.terminationsOpened == 0 { return .neverTerminates(named: relay.streamOpeningsTLS > 0) }
        if inspection.flowsInspected > 0 { return inspection.terminationsFailed > 0 ? .workingWithBreakage : .working }
        if inspection.terminationsFailed > 0 { return .failing }
        if inspection.flowsPinned > 0 { return .pinnedOnly }
        return .starting
    }

    /// "no tunnel is running on D: nothing to diagnose — …", or without the place.
    package static func nothingToDiagnose(on place: String?) -> String {
        let running = place.map { "no tunnel is running on \($0)" } ?? "No tunnel is running"
        return "\(running): nothing to diagnose — the counters belong to a running session"
    }

    package static func headline(for verdict: InspectionVerdict) -> DiagnosticsHeadline {
        switch verdict {
        case .notMonitoring:
            DiagnosticsHeadline(verdict: "notMonitoring", text: nothingToDiagnose(on: nil) + ".")
        case .unavailable:
            DiagnosticsHeadline(verdict: "unavailable",
                                text: "The tunnel did not report what its relay did (it may be stopping), so nothing can be said about looking inside secure traffic.")
        case .idle:
            DiagnosticsHeadline(verdict: "idle",
                                text: "Nothing is being looked inside: inspection is off, or no secure connection over TCP has qualified for it.")
        case .neverTerminates(named: true):
            DiagnosticsHeadline(verdict: "neverTerminatesNamed",
                                text: "Secure connections qualified and named their servers, yet none was taken over: the local certificate authority may be missing, or the tunnel's local listener refused.")
        case .neverTerminates(named: false):
            DiagnosticsHeadline(verdict: "neverTerminatesUnnamed",
                                text: "The connections that qualified were not TLS, so none was taken over — normal, not a fault.")
        case .working:
            DiagnosticsHeadline(verdict: "working", text: "Looking inside secure traffic works: connections are being decrypted.")
        case .workingWithBreakage:
            DiagnosticsHeadline(verdict: "workingWithBreakage",
                                text: "Looking inside secure traffic works, but some connections were broken by inspection: the programs that made them lost them. "
                                    + "\(brokenListing) lists them, each with why.")
        case .failing:
            DiagnosticsHeadline(verdict: "failing",
                                text: "Connections are taken over and their inspection fails: those connections are lost to the programs that made them. "
                                    + "\(brokenListing) lists them, each with why.")
        case .pinnedOnly:
            DiagnosticsHeadline(verdict: "pinnedOnly",
                                text: "Every connection taken over refused this run's certificate — the app pins its own, or trusts a store this run did not reach — and was left alone: such apps are never forced.")
        case .starting:
            DiagnosticsHeadline(verdict: "starting",
                                text: "Connections have been taken over; what became of each is known when it closes.")
        }
    }

    /// The command that lists the connections inspection broke.
    static let brokenListing = "'tunnelvision flows --status \(HistoryFlowWording.statusIdentifier(.inspectionFailed))'"
}
