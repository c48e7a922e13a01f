/// What can be said about a flow's server certificates, from the server's answer and what the
/// certificate scanner read — one value, so a view never has to guess why a chain is missing.
package enum ServerCertificateVisibility: Sendable, Hashable, Codable {
    /// The server's Certificate message, read in the clear (TLS ≤ 1.2).
    case presented(ServerCertificateChain)
    /// A handshake followed in the clear that carried no certificate, and why.
    case notSent(ServerCertificateAbsence)
    /// TLS 1.3 was negotiated: the certificates travel encrypted and cannot be read.
    case encryptedInHandshake
    /// The answer is our own upstream connection's (an inspected flow): the device was shown the
    /// tunnel's certificate, not the server's.
    case replacedByInspection
    /// No ServerHello was read, or the server refused with an alert: there was no certificate.
    case noNegotiation
    /// TLS ≤ 1.2 was negotiated in the clear but its certificates were not read (the flow ended
    /// first, or the flight was unreadable).
    case notRead

    /// `presented`, `notSent`, `encryptedInHandshake`, `replacedByInspection`, `noNegotiation`,
    /// `notRead`: the case's stable identifier in every document that names it.
    package var identifier: String {
        switch self {
        case .presented: "presented"
        case .notSent: "notSent"
        case .encryptedInHandshake: "encryptedInHandshake"
        case .replacedByInspection: "replacedByInspection"
        case .noNegotiation: "noNegotiation"
        case .notRead: "notRead"
        }
    }

    /// The answer decides first — no answer, a refusal, an inspected flow and TLS 1.3 leave nothing
    /// to read — then the reading says what the clear handshake held.
    package init(answer: ServerTLSAnswer?, reading: ServerCertificateReading?) {
        guard case .negotiated(let negotiated)? = answer else {
            self = .noNegotiation
            return
        }
        if negotiated.source == .upstreamConnection {
            self = .replacedByInspection
        } else if !Self.certificatesTravelInClear(negotiated) {
            self = .encryptedInHandshake
        } else {
            switch reading {
            case .chain(let chain)?: self = .presented(chain)
            case .notSent(let absence)?: self = .notSent(absence)
            case nil: self = .notRead
            }
        }
    }

    /// True when the handshake that produced `negotiated` sends the server's Certificate message
    /// in the clear: SSL 3.0 through TLS 1.2 (RFC 5246 §7.3). TLS 1.3 (RFC 8446 §2), its drafts,
    /// any later or unknown version and a HelloRetryRequest (only TLS 1.3 has one) do not.
    package static func certificatesTravelInClear(_ negotiated: NegotiatedTLS) -> Bool {
        !negotiated.fromHelloRetryRequest
            && (TLSProtocolVersion.ssl30.rawValue...TLSProtocolVersion.tls12.rawValue).contains(negotiated.version.rawValue)
    }
}
