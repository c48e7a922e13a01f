/// Why a connection was seen as cleartext. Only HTTP is recognised; anything else is unassessed.
package enum CleartextProtocol: String, Sendable, Hashable, CaseIterable {
    case http
}

/// Why a flow has no name the host check could read. Raw values are stable identifiers.
/// Encrypted DNS is not among them: it hides names from every flow, so it is a session-level
/// counter elsewhere, not a reason of one flow's.
package enum UnnamedFlowReason: String, Sendable, Hashable, CaseIterable {
    /// No ClientHello was read, and DNS gave the address no name.
    case noClientHelloRead
    /// The ClientHello was read and announced no server name.
    case serverNameNotAnnounced
    /// The ClientHello carried Encrypted Client Hello and its outer hello announced no name.
    case encryptedClientHello
}

/// What a finding states (audit.md § Findings). Flows stating the same thing share one finding,
/// so the evidence holds nothing of any one flow's — except the host, which is what the host and
/// pinning kinds are about.
package enum FindingEvidence: Sendable, Hashable {
    case weakTLSVersion(TLSVersionObservation)
    case cleartextTraffic(CleartextProtocol)
    /// `host` normalised (`DomainPattern.normalised(host:)`).
    case hostNotInAllowlist(host: String)
    case unnamedFlow(UnnamedFlowReason)
    /// `host` is the announced name, normalised.
    case pinningAbsent(host: String)
    /// `host` is the announced name, normalised.
    case pinningObserved(host: String)
    case activityBeforeConsent

    package var kind: FindingKind {
        switch self {
        case .weakTLSVersion: .weakTLSVersion
        case .cleartextTraffic: .cleartextTraffic
        case .hostNotInAllowlist: .hostNotInAllowlist
        case .unnamedFlow: .unnamedFlow
        case .pinningAbsent: .pinningAbsent
        case .pinningObserved: .pinningObserved
        case .activityBeforeConsent: .activityBeforeConsent
        }
    }

    /// The host the finding is about, for the kinds that name one.
    package var host: String? {
        switch self {
        case let .hostNotInAllowlist(host), let .pinningAbsent(host), let .pinningObserved(host): host
        default: nil
        }
    }

    /// One English sentence a report prints: what was observed, never a verdict.
    package var statement: String {
        switch self {
        case let .weakTLSVersion(observation):
            "Connections used \(observation.version.name), read from \(observation.basis.phrase), "
                + "which is older than the minimum TLS version."
        case .cleartextTraffic(.http):
            "Connections sent unencrypted HTTP requests."
        case let .hostNotInAllowlist(host):
            "Connections went to \(host), which the project's allowlist does not cover."
        case .unnamedFlow(.noClientHelloRead):
            "Connections had no name: no ClientHello was read and DNS gave their address no name."
        case .unnamedFlow(.serverNameNotAnnounced):
            "Connections had no name: their ClientHello announced no server name."
        case .unnamedFlow(.encryptedClientHello):
            "Connections had no name: their ClientHello used Encrypted Client Hello and announced no server name."
        case let .pinningAbsent(host):
            "The app completed TLS handshakes for \(host) against the inspecting CA's certificate, "
                + "so it does not pin that host's certificate."
        case let .pinningObserved(host):
            "The app refused the inspecting CA's certificate for \(host): it pins the certificate "
                + "or trusts no user-installed root, and which of the two is not known."
        case .activityBeforeConsent:
            "Connections began before consent was first marked in the session."
        }
    }
}
