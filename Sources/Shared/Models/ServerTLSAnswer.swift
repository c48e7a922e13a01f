/// What the server answered a ClientHello. A refusal is an answer too; "nothing known about the
/// server" is a nil `ServerTLSAnswer`, never a case of it.
///
/// Independent of `TLSInspectionStatus`: that says what TunnelVision did, this what the server chose.
package enum ServerTLSAnswer: Sendable, Hashable, Codable {
    case negotiated(NegotiatedTLS)
    /// The server sent an alert instead of a ServerHello; the raw alert code (RFC 8446 §6),
    /// uninterpreted.
    case refused(alert: UInt8)
}

/// The version and cipher suite a server chose, and where that reading came from.
package struct NegotiatedTLS: Sendable, Hashable, Codable {
    /// The `supported_versions` value when the server sent one, else its `legacy_version`.
    package var version: TLSProtocolVersion
    package var cipherSuite: TLSCipherSuite
    /// The reading came from a HelloRetryRequest (a ServerHello with RFC 8446's fixed random).
    /// Always false for upstream readings: the system reports a finished handshake.
    package var fromHelloRetryRequest: Bool
    package var source: TLSAnswerSource

    package init(version: TLSProtocolVersion, cipherSuite: TLSCipherSuite, fromHelloRetryRequest: Bool,
                source: TLSAnswerSource) {
        self.version = version
        self.cipherSuite = cipherSuite
        self.fromHelloRetryRequest = fromHelloRetryRequest
        self.source = source
    }
}

/// Whose handshake a server answer belongs to.
package enum TLSAnswerSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// Read off the cleartext ServerHello sent to the device: the answer to the app's ClientHello.
    case serverHello
    /// Reported by the tunnel's own connection to the real server: the answer to the tunnel's
    /// ClientHello (an inspected flow), not to the app's.
    case upstreamConnection
    /// What the app and the tunnel's leaf negotiated on an inspected flow: the app's own handshake,
    /// answered by the tunnel (`FlowRecord.leafTLS`).
    case tunnelLeaf
}
