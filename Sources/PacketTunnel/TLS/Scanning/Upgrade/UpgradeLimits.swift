/// The bounds on following a plaintext exchange, in one place. Each side gives up past them.
enum UpgradeLimits {
    /// Plaintext bytes of one side read before its switch, at most: a greeting, a capability list
    /// (IMAP's and XMPP's are the longest, well under 2 KB from Dovecot, Postfix, Prosody) and the
    /// commands before STARTTLS fit several times over.
    static let maxPlaintextBytes = 8192
    /// The longest text line followed (SMTP allows 512 octets, RFC 5321 §4.5.3.1.4–5; an IMAP
    /// capability line is longer).
    static let maxLineBytes = 4096
    /// The start of a line kept to classify it: every command and reply word looked for fits.
    static let keptLineBytes = 96
    /// The start of an XML tag kept to classify it (`<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>` is 51).
    static let keptTagBytes = 160
    /// The start of an LDAP message kept to classify it (a StartTLS request is 31 bytes).
    static let keptMessageBytes = 64
}
