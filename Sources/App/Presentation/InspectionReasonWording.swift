import Shared

/// Why a flow was not inspected, or how inspection broke it, in words: every screen and command
/// says a reason with these sentences, and scripts read `identifier`.
public enum InspectionReasonWording {
    /// The kind's stable identifier (its raw value): `inspectionOff`, `refusedCertificate`, ….
    public static func identifier(_ kind: InspectionReasonKind) -> String { kind.rawValue }

    /// The kind by its identifier, ignoring case; nil for an unknown one.
    public static func kind(identifier: String) -> InspectionReasonKind? {
        InspectionReasonKind.allCases.first { $0.rawValue.lowercased() == identifier.lowercased() }
    }

    /// The kind in a few words, for a counter's label or a filter.
    public static func label(_ kind: InspectionReasonKind) -> String {
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

    /// The kind as a sentence: what happened and what it means for the content.
    public static func sentence(_ kind: InspectionReasonKind) -> String {
        switch kind {
        case .inspectionOff:
            "not inspected: inspection was off for this connection (run --inspect, and the tls-inspection setting)"
        case .noServerName:
            "not inspected: the app named no server in its hello, so there was no name to make a certificate for"
        case .unreadableClientHello:
            "not inspected: the app's hello could not be read, so nothing sound could be decided"
        case .quic:
            "not inspected: QUIC is passed through untouched (only TCP connections are inspected)"
        case .clientTLSPolicy:
            "not inspected: nothing within the app's own TLS policy could be agreed with the server, "
                + "so the app met the server directly and got its answer"
        case .upstreamVerificationFailed:
            "not inspected: the server failed verification, so the app was shown the server's own certificate to judge itself"
        case .upstreamHandshakeFailed:
            "not inspected: the server broke off the handshake before anything reached the app, which met the server directly"
        case .refusedCertificate:
            "kept private: the app refused this run's certificate (it pins its certificate, or trusts a store this run "
                + "did not reach); later connections to this host pass through untouched"
        case .clientCertificateRequested:
            "kept private: the server asks for the app's own certificate, which the tunnel cannot present for it; "
                + "connections to this host pass through untouched"
        case .clientHandshakeFailed:
            "broken by inspection: the app broke off the handshake with this run's certificate"
        case .upstreamFailed:
            "broken by inspection: the server's side failed after the app's side began, and the app's connection was reset"
        case .internalError:
            "broken by inspection: the tunnel's own side failed"
        }
    }

    /// The reason in full: its sentence, then its detail when there is one.
    public static func text(_ reason: InspectionReason) -> String {
        reason.detail.map { sentence(reason.kind) + " (\($0))" } ?? sentence(reason.kind)
    }
}
