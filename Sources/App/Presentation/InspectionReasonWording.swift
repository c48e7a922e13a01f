import Shared

/// Why a flow was not inspected, or how inspection broke it, in words: every screen and command
/// says a reason with these sentences, and scripts read `identifier`.
package enum InspectionReasonWording {
    /// The kind's stable identifier (its raw value): `inspectionOff`, `refusedCertificate`, ….
    package static func identifier(_ kind: InspectionReasonKind) -> String { kind.rawValue }

    /// The kind by its identifier, ignoring case; nil for an unknown one.
    package static func kind(identifier: String) -> InspectionReasonKind? {
        InspectionReasonKind.allCases.first { $0.rawValue.lowercased() == identifier.lowercased() }
    }

    /// The kind in a few words, for a counter's label or a filter.
    package static func label(_ kind: InspectionReasonKind) -> String {
        switch kind {
        case .inspectionOff: "inspection off"
        case .noServerName: "no server name"
        case .unreadableClientHello: "unreadable ClientHello"
        case .quic: "QUIC (passed through)"
        case .clientTLSPolicy: "the client's TLS policy"
        case .upstreamVerificationFailed: "server failed verification"
        case .upstreamHandshakeFailed: "server broke the handshake"
        case .refusedCertificate: "refused the run's certificate"
        case .clientCertificateRequested: "server asks for the app's certificate"
        case .clientHandshakeFailed: "client broke the handshake"
        case .upstreamFailed: "server's side failed"
        case .internalError: "the tunnel's own failure"
        }
    }

    /// What became of a flow that has a reason, before the reason itself: "not inspected
    /// (passed through untouched)", "kept private (…)", "broken by inspection (…)". The status,
    /// not the kind, says it: the tunnel's own failure, say, steps aside when it still can.
    package static func outcome(_ status: TLSInspectionStatus) -> String {
        let label = HistoryFlowWording.statusLabel(status).lowercased()   // the badge's words, where they apply
        switch status {
        case .plaintext, .encrypted, .inspected: return "not inspected (passed through untouched)"
        case .notInspectable: return "\(label) (the host is left alone for the rest of the run)"
        case .inspectionFailed: return "\(label) (the app's connection failed)"
        }
    }

    /// The kind as a sentence: what happened, and only what is known.
    package static func sentence(_ kind: InspectionReasonKind) -> String {
        switch kind {
        case .inspectionOff:
            "inspection was off for this connection (it needs run --inspect, or '\(SettingName.tlsInspection.command("on"))', "
                + "and a usable local CA)"
        case .noServerName:
            "the app named no server in its hello, so there was no name to make a certificate for"
        case .unreadableClientHello:
            "the app's hello could not be read, so nothing sound could be decided"
        case .quic:
            "QUIC is passed through untouched: only TLS over TCP is inspected"
        case .clientTLSPolicy:
            "nothing within the app's own TLS policy could be agreed with the server, so the app met the server directly "
                + "and got its answer"
        case .upstreamVerificationFailed:
            "the server failed verification, so the app was shown the server's own certificate to judge for itself"
        case .upstreamHandshakeFailed:
            "the server broke off the handshake before anything reached the app, which met the server directly"
        case .refusedCertificate:
            "the app refused this run's certificate before finishing its handshake — it pins its certificate, or trusts "
                + "a store this run did not reach"
        case .clientCertificateRequested:
            "the server asks for the app's own certificate, which the tunnel cannot present for it"
        case .clientHandshakeFailed:
            "the app broke off its handshake with this run's certificate in a way that is no refusal of it"
        case .upstreamFailed:
            "the server's side failed after the app's side had begun"
        case .internalError:
            "the tunnel's own side failed"
        }
    }

    /// The reason in full, for a flow of `status`: what became of it, why, then the detail in the
    /// words of whoever said it.
    package static func text(_ reason: InspectionReason, status: TLSInspectionStatus) -> String {
        let said = outcome(status) + ": " + sentence(reason.kind)
        return reason.detail.map { said + " (\($0))" } ?? said
    }

    /// Whether a list's row says the reason beside its status: every reason but inspection simply
    /// not asked for, which is every TLS connection of a run without --inspect.
    package static func isWorthSaying(_ reason: InspectionReason) -> Bool {
        reason.kind != .inspectionOff || reason.detail != nil
    }
}
