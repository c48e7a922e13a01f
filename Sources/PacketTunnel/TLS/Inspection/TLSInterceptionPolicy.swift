import Shared

/// The decisions of TLS inspection, apart from any TLS: whether a flow may be attempted, and what
/// an attempt's outcome makes of it. Where the pinning invariant lives (ADR 0003): a client that
/// refused our leaf resolves to `notInspectable` — never to an error that could invite a retry.
package enum TLSInterceptionPolicy {
    /// Only TCP to port 443 is ever a candidate (ADR 0005), and only while inspection is on.
    package static func isCandidate(_ key: FlowKey, server: IPEndpoint, inspectionEnabled: Bool) -> Bool {
        inspectionEnabled && key.proto == .tcp && server.port == WellKnownPort.https
    }

    package enum Gate: Sendable, Equatable {
        case attempt(sni: String)
        case abort(TLSInterceptError)
    }

    /// Once the ClientHello is read: the CA first (without it nothing can be presented), then a
    /// name to mint for, then the hosts that already refused us.
    package static func gate(caReady: Bool, clientHelloSNI: String?, pinned: PinnedHostMemory) -> Gate {
        guard caReady else { return .abort(.noCA) }
        guard let sni = clientHelloSNI, !sni.isEmpty else { return .abort(.noSNI) }
        guard !pinned.contains(sni) else { return .abort(.pinnedHost) }
        return .attempt(sni: sni)
    }

    package enum Decision: Sendable, Equatable {
        case inspected
        case notInspectable
        case fail(TLSInterceptError)
    }

    package static func decide(_ outcome: TLSTerminationOutcome) -> Decision {
        switch outcome {
        case .inspected: .inspected
        case .pinned: .notInspectable
        case .serverHandshakeFailed(let reason): .fail(.handshakeWithServerFailed(reason))
        case .userspaceStackError(let reason): .fail(.userspaceStackError(reason))
        }
    }

    /// The status a flow is recorded with for a gate that stopped it; nil leaves it as it was.
    package static func status(for abort: TLSInterceptError) -> TLSInspectionStatus? {
        abort == .pinnedHost ? .notInspectable : nil
    }
}

/// How one termination ended, as the pairing saw it.
package enum TLSTerminationOutcome: Sendable, Equatable {
    /// Both legs up and the client sent its first data through ours.
    case inspected
    /// The client refused our leaf: an alert during the handshake, or a close right after it
    /// without sending anything.
    case pinned
    /// The real server failed the upstream leg's checks (its certificate, its name); the client
    /// never saw a leaf of ours.
    case serverHandshakeFailed(String)
    /// Ours broke: a session that could not be made, a stream that overflowed its bound.
    case userspaceStackError(String)
}

package enum TLSInterceptError: Error, Sendable, Equatable {
    case noCA, noSNI, pinnedHost
    case handshakeWithServerFailed(String)
    case userspaceStackError(String)
}
