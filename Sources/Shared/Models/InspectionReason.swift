/// Why TunnelVision did not decrypt an encrypted flow, or why its attempt broke the flow: a
/// typed kind with a stable raw value (scripts read it in every `--json`), and the words of
/// whoever said it (OpenSSL's, an alert's name) as the detail.
///
/// The status says what became of the flow — passed through untouched (`encrypted`), its host left
/// alone for the rest of the run (`notInspectable`), or broken by the attempt (`inspectionFailed`)
/// — and the reason why: a failure of the tunnel's own is `encrypted` when the attempt could still
/// step aside before the client saw anything of it, and `inspectionFailed` when it could not.
package struct InspectionReason: Sendable, Hashable, Codable {
    package var kind: InspectionReasonKind
    /// In the words of whoever said it ("certificate has expired", "alert 70 (protocol_version)");
    /// nil when the kind says it all.
    package var detail: String?

    package init(_ kind: InspectionReasonKind, detail: String? = nil) {
        self.kind = kind
        self.detail = detail
    }
}

package enum InspectionReasonKind: String, Sendable, Hashable, Codable, CaseIterable {
    // Decided before anything of the attempt reached the client, which met the real server on its
    // own terms.

    /// Inspection was not asked for (`run` without `--inspect`), or its switch was off.
    case inspectionOff
    /// The ClientHello named no server: there is no name to mint a certificate for.
    case noServerName
    /// The stream opened as TLS but its ClientHello could not be read (malformed, or larger than a
    /// hello may be): there is nothing sound to decide on.
    case unreadableClientHello
    /// QUIC is passed through (ADR 0006): its TLS runs inside packets the relay does not terminate.
    case quic
    /// The client would not have accepted anything within its own TLS policy that the upstream leg
    /// could offer (its versions, cipher suites, groups, signature algorithms), or the server
    /// refused what the client offers: the client got the server's own answer.
    case clientTLSPolicy
    /// The real server failed the upstream leg's verification (OpenSSL's reason in the detail):
    /// the client saw the real certificate and judged it itself — never one of ours vouching for it.
    case upstreamVerificationFailed
    /// The real server broke off the upstream handshake another way (closed, reset, a malformed
    /// message) before anything was said to the client.
    case upstreamHandshakeFailed

    // The host is left alone for the rest of the run (ADR 0003).

    /// The client refused the run's certificate before its Finished (a certificate alert, or a close
    /// or reset): it pins, or it trusts a store the run did not reach.
    case refusedCertificate
    /// The server asks for the app's own certificate, which the tunnel cannot present for it.
    case clientCertificateRequested

    // After the client's leg began.

    /// The client broke off our leaf's handshake in a way that is no refusal of the certificate
    /// (an alert of another kind).
    case clientHandshakeFailed
    /// The server's side failed after the client's leg began (an alert, a broken record).
    case upstreamFailed
    /// The tunnel's own side failed (a certificate that could not be minted, a bound overflowed).
    case internalError
}
