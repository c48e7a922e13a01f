/// How the device's side of a TCP stream began, read from its first bytes on any port. Decided
/// once; no reading means the client did not send enough bytes to decide. A stream read as
/// `unrecognised` is raised to one of the upgrades when a protocol that starts in plaintext is
/// followed to its switch to TLS (STARTTLS and its kin): the client's request, the server's yes,
/// and the client's handshake right after it.
///
/// Stored as its raw value (`stream_opening`): a value this build does not know — one a newer
/// build wrote — reads as no reading (`StreamOpening(stored:)`), not as a broken row.
package enum StreamOpening: String, Sendable, Hashable, Codable, CaseIterable {
    /// A TLS handshake record carrying a ClientHello.
    case tlsHandshake
    /// A complete HTTP request line: unencrypted HTTP.
    case httpRequest
    /// Neither (SSH, SMTP that never upgraded, a private protocol…): claims nothing about what it is.
    case unrecognised
    /// SMTP, upgraded by `STARTTLS` and the server's 220 (RFC 3207).
    case smtpStartTLS
    /// IMAP, upgraded by a tagged `STARTTLS` and its tagged OK (RFC 3501 §6.2.1).
    case imapStartTLS
    /// POP3, upgraded by `STLS` and `+OK` (RFC 2595 §4).
    case pop3STLS
    /// FTP, upgraded by `AUTH TLS` (or `AUTH SSL`) and 234 (RFC 4217 §4).
    case ftpAuthTLS
    /// XMPP, upgraded by `<starttls/>` and `<proceed/>` (RFC 6120 §5.4).
    case xmppStartTLS
    /// LDAP, upgraded by the StartTLS extended operation and its success (RFC 4511 §4.14).
    case ldapStartTLS
    /// PostgreSQL, upgraded by an SSLRequest and the server's 'S' (PostgreSQL protocol §55.2.10).
    case postgresSSLRequest

    /// The stream began in plaintext and switched to TLS.
    package var upgradesToTLS: Bool {
        switch self {
        case .tlsHandshake, .httpRequest, .unrecognised: false
        case .smtpStartTLS, .imapStartTLS, .pop3STLS, .ftpAuthTLS, .xmppStartTLS, .ldapStartTLS, .postgresSSLRequest: true
        }
    }

    /// The stream carries TLS: it opened with it, or switched to it.
    package var carriesTLS: Bool { self == .tlsHandshake || upgradesToTLS }

    /// A stored raw value; nil for one this build does not know (a newer build's), which is no
    /// reading rather than a corrupt row.
    package init?(stored raw: String) {
        self.init(rawValue: raw)
    }
}
