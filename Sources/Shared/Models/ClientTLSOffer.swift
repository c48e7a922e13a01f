/// What the app offered in its ClientHello. Always the device's side, even on an inspected flow,
/// where the server's answer belongs to the tunnel's own handshake. A nil offer means the hello was
/// not read — never an empty offer.
package struct ClientTLSOffer: Sendable, Hashable, Codable {
    package var versions: OfferedTLSVersions
    /// ALPN names in the client's order, GREASE removed (RFC 7301 §3.1).
    package var applicationProtocols: [String]
    /// Names the client sent that are not in `applicationProtocols` (unprintable, say).
    package var omittedApplicationProtocols: Int
    /// The hello carried `encrypted_client_hello`: what was read is the outer ClientHello.
    package var hasEncryptedClientHello: Bool
    /// A server_name that is no host name (an IP literal, `host:port`, non-ASCII…): it names
    /// nothing, and is kept as sent, as evidence (`ServerNameAsSent`).
    package var serverNameAsSent: String?

    package init(versions: OfferedTLSVersions, applicationProtocols: [String] = [],
                omittedApplicationProtocols: Int = 0, hasEncryptedClientHello: Bool = false,
                serverNameAsSent: String? = nil) {
        self.versions = versions
        self.applicationProtocols = applicationProtocols
        self.omittedApplicationProtocols = omittedApplicationProtocols
        self.hasEncryptedClientHello = hasEncryptedClientHello
        self.serverNameAsSent = serverNameAsSent
    }
}

/// The versions a ClientHello offered, in one of the two ways a hello can say it.
package enum OfferedTLSVersions: Sendable, Hashable, Codable {
    /// The exact `supported_versions` list (RFC 8446 §4.2.1) minus GREASE: exhaustive.
    case listed([TLSProtocolVersion])
    /// No `supported_versions`: the `legacy_version` is a ceiling only — never a list of one.
    case upTo(TLSProtocolVersion)
}
