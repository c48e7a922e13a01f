/// How the device's side of a TCP stream began, read from its first bytes on any port. Decided
/// once; no reading means the client did not send enough bytes to decide.
public enum StreamOpening: String, Sendable, Hashable, Codable, CaseIterable {
    /// A TLS handshake record carrying a ClientHello.
    case tlsHandshake
    /// A complete HTTP request line: unencrypted HTTP.
    case httpRequest
    /// Neither (SSH, SMTP, a private protocol…): claims nothing about what it is.
    case unrecognised
}
