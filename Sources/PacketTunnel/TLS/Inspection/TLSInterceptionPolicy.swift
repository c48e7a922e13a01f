import Shared

/// The decisions of TLS inspection, apart from any TLS: whether a flow may be attempted, what an
/// attempt's outcome makes of it, and what a peer's alert means. Where the pinning invariant lives
/// (ADR 0003): a client that refused our leaf makes its host not inspectable for the rest of the
/// run — never an error that could invite a retry — and only evidence of refusal counts.
package enum TLSInterceptionPolicy {
    /// Any TCP stream may be a candidate while inspection is on: what makes it one is that it opens
    /// with a ClientHello, whatever its port (8443, 4433, …).
    package static func isCandidate(_ key: FlowKey, inspectionEnabled: Bool) -> Bool {
        inspectionEnabled && key.proto == .tcp
    }

    package enum Gate: Sendable, Equatable {
        case attempt(sni: String)
        /// Passed through untouched, with the status and reason to record.
        case skip(TLSInspectionStatus, InspectionReason)
    }

    /// Once the ClientHello is read: the CA first (without it nothing can be presented), then a
    /// name to mint for, then the hosts (a name at `port`) already found not inspectable.
    package static func gate(caReady: Bool, clientHelloSNI: String?, port: UInt16, remembered: UninspectableHosts) -> Gate {
        guard caReady else {
            return .skip(.encrypted, InspectionReason(.inspectionOff, detail: "the local CA is not usable"))
        }
        guard let sni = clientHelloSNI, !sni.isEmpty else { return .skip(.encrypted, InspectionReason(.noServerName)) }
        if let reason = remembered.reason(for: sni, port: port) { return .skip(status(rememberedFor: reason.kind), reason) }
        return .attempt(sni: sni)
    }

    /// What a flow is recorded as after its attempt, and whether its host is remembered.
    package struct Verdict: Sendable, Equatable {
        package var status: TLSInspectionStatus
        package var reason: InspectionReason?
        package var remembersHost: Bool
    }

    package static func verdict(for outcome: TLSTerminationOutcome) -> Verdict {
        switch outcome {
        case .inspected:
            Verdict(status: .inspected, reason: nil, remembersHost: false)
        case .steppedAside(let reason):
            // A server that fails verification fails it for every connection: one upstream
            // handshake per flow spent on it is enough.
            Verdict(status: .encrypted, reason: reason, remembersHost: reason.kind == .upstreamVerificationFailed)
        case .notInspectable(let reason):
            Verdict(status: .notInspectable, reason: reason, remembersHost: true)
        case .failed(let reason):
            Verdict(status: .inspectionFailed, reason: reason, remembersHost: false)
        }
    }

    /// A remembered host's later flows pass through: a refusing host's are not inspectable, a host
    /// that failed verification keeps passing through encrypted.
    static func status(rememberedFor kind: InspectionReasonKind) -> TLSInspectionStatus {
        kind == .refusedCertificate || kind == .clientCertificateRequested ? .notInspectable : .encrypted
    }

    /// The server's alerts during the upstream handshake that refuse what was offered — versions,
    /// suites, groups, extensions (RFC 8446 §6.2): with the offer inside the client's limits, the
    /// client's own policy and the server's do not meet.
    package static func refusesOffer(_ alert: TLSAlertDescription) -> Bool {
        [40, 47, 70, 71, 109, 110, 120].contains(alert.rawValue)
    }
}

/// How one termination's attempt went, as the pairing saw it.
package enum TLSTerminationOutcome: Sendable, Equatable {
    /// The client finished its handshake with our leaf (its Finished arrived): it accepted it.
    case inspected
    /// Nothing of the attempt reached the client, which meets the real server directly.
    case steppedAside(InspectionReason)
    /// The host cannot be inspected (the client refused our leaf before its Finished; the server
    /// asks for the app's certificate): left alone for the rest of the run.
    case notInspectable(InspectionReason)
    /// The attempt broke the flow after the client's leg began.
    case failed(InspectionReason)
}
