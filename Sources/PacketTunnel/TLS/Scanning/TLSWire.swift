/// The TLS code points and limits the scanners read, in one place. Values from RFC 8446 (TLS 1.3),
/// RFC 5246 (TLS 1.2), RFC 6066 (server_name), RFC 7301 (ALPN), RFC 8701 (GREASE) and the IANA
/// TLS ExtensionType registry (encrypted_client_hello).
enum TLSWire {
    // Record content types (RFC 8446 §5.1, B.1).
    static let changeCipherSpec: UInt8 = 20
    static let alert: UInt8 = 21
    static let handshake: UInt8 = 22
    static let applicationData: UInt8 = 23
    /// The content types ever assigned to a record a stream may open with (20…25: up to
    /// heartbeat and tls12_cid). Any other first byte is not TLS at all.
    static let knownContentTypes: ClosedRange<UInt8> = 20...25

    /// TLSPlaintext.length MUST NOT exceed 2^14 (RFC 8446 §5.1; RFC 5246 §6.2.1). A cleartext
    /// handshake or alert record longer than that is a record_overflow.
    static let maxPlaintextRecordLength = 1 << 14
    /// Record header: type(1) legacy_record_version(2) length(2).
    static let recordHeaderLength = 5
    /// Handshake header: msg_type(1) length(3).
    static let handshakeHeaderLength = 4
    /// An alert is level(1) description(1), never fragmented nor coalesced (RFC 8446 §5.1).
    static let alertLength = 2
    /// AlertLevel warning (RFC 5246 §7.2), and close_notify, the one warning that ends a stream.
    static let warningAlertLevel: UInt8 = 1
    static let closeNotify: UInt8 = 0

    // Handshake types (RFC 8446 §4, RFC 5246 §7.4, RFC 5077 §3.3).
    static let clientHello: UInt8 = 1
    static let serverHello: UInt8 = 2
    static let newSessionTicket: UInt8 = 4
    static let certificate: UInt8 = 11
    static let serverKeyExchange: UInt8 = 12
    static let serverHelloDone: UInt8 = 14
    static let finished: UInt8 = 20

    // Extension types (IANA TLS ExtensionType Values).
    static let serverNameExtension: UInt16 = 0
    static let supportedGroupsExtension: UInt16 = 10
    static let pointFormatsExtension: UInt16 = 11
    static let signatureAlgorithmsExtension: UInt16 = 13
    static let alpnExtension: UInt16 = 16
    static let supportedVersionsExtension: UInt16 = 43
    static let encryptedClientHelloExtension: UInt16 = 65037

    /// server_name's only defined NameType (RFC 6066 §3).
    static let hostNameType: UInt8 = 0

    /// The ServerHello.random that marks a HelloRetryRequest (RFC 8446 §4.1.3): SHA-256 of
    /// "HelloRetryRequest".
    static let helloRetryRequestRandom: [UInt8] = [
        0xCF, 0x21, 0xAD, 0x74, 0xE5, 0x9A, 0x61, 0x11, 0xBE, 0x1D, 0x8C, 0x02, 0x1E, 0x65, 0xB8, 0x91,
        0xC2, 0xA2, 0x11, 0x16, 0x7A, 0xBB, 0x8C, 0x5E, 0x07, 0x9E, 0x09, 0xE2, 0xC8, 0xA8, 0x33, 0x9C,
    ]

    /// RFC 8701 §2: the sixteen GREASE values 0x0A0A, 0x1A1A … 0xFAFA, used for versions,
    /// cipher suites, extensions and groups; the same two bytes are the GREASE ALPN names (§3.3).
    static func isGREASE(_ value: UInt16) -> Bool {
        value & 0x0F0F == 0x0A0A && value >> 8 == value & 0xFF
    }
}
