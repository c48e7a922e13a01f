import Shared

/// What the pipeline learns about a flow besides its packets. Every setter is a no-op when the
/// flow is gone (closed, evicted or expired): a late fact must not resurrect a flow. None of them
/// counts as activity: recency and `lastSeen` stay where the last packet left them.
extension FlowTable {
    /// The TLS pipeline's verdict; also records `sni` when given.
    package mutating func setTLSStatus(_ status: TLSInspectionStatus, for key: FlowKey, sni: String? = nil) {
        updateRecord(of: key) { record in
            record.tlsStatus = status
            if let sni { record.sni = sni }
        }
    }

    /// The host the flow announced, read by the relay. Leaves `tlsStatus` alone: knowing whom a
    /// flow calls is not inspecting it.
    package mutating func setSNI(_ sni: String, for key: FlowKey) {
        updateRecord(of: key) { $0.sni = sni }
    }

    /// What the app offered in its ClientHello. Leaves `tlsStatus` alone, but for a hello inside a
    /// proxy's tunnel: that hello is the TLS opening the stream's own opening (the proxy request)
    /// could not show, so it raises a `plaintext` flow to `encrypted` as a TLS opening does.
    package mutating func setClientTLS(_ offer: ClientTLSOffer, for key: FlowKey) {
        updateRecord(of: key) { record in
            record.clientTLS = offer
            if record.proxyTarget != nil { record.raiseToEncrypted() }
        }
    }

    /// What the server answered. Leaves `tlsStatus` alone: what the server chose is not what
    /// TunnelVision did. A new answer drops the JA3S of the one before (its own, if it has one,
    /// follows as a `serverFingerprints` fact).
    package mutating func setServerTLS(_ answer: ServerTLSAnswer, for key: FlowKey) {
        updateRecord(of: key) { record in
            record.serverTLS = answer
            record.serverFingerprints = nil
        }
    }

    /// How the device's stream began. Decided once, so the first reading stays — but for an
    /// `unrecognised` stream later seen to switch to TLS (STARTTLS), which says more. TLS, from
    /// the start or after the switch, raises a `plaintext` flow to `encrypted` (TLS on a port
    /// other than 443) and never lowers.
    package mutating func setStreamOpening(_ opening: StreamOpening, for key: FlowKey) {
        updateRecord(of: key) { record in
            guard record.streamOpening == nil || (record.streamOpening == .unrecognised && opening.upgradesToTLS) else { return }
            record.streamOpening = opening
            if opening.carriesTLS { record.raiseToEncrypted() }
        }
    }
}

extension FlowRecord {
    /// Takes a QUIC reading by `QUICVersionReading.replaces` (the server has the last word). A
    /// v1 or v2 reading of a UDP flow shows it is QUIC, whose packets are always encrypted
    /// (RFC 9001 §5), so it raises `plaintext` to `encrypted`; an unknown version claims nothing.
    mutating func apply(_ quic: QUICVersionReading) {
        if quic.replaces(self.quic) { self.quic = quic }
        if key.proto == .udp, quic.version == .v1 || quic.version == .v2 { raiseToEncrypted() }
    }

    /// `plaintext` → `encrypted`; any other status already says more and stays.
    mutating func raiseToEncrypted() {
        if tlsStatus == .plaintext { tlsStatus = .encrypted }
    }
}
