/// A TLS alert's description code (RFC 8446 §6; RFC 5246 §7.2 for the codes TLS 1.3 retired), an
/// open code point: an unregistered value is kept and shown raw.
package struct TLSAlertDescription: RawRepresentable, Sendable, Hashable, Codable {
    package let rawValue: UInt8

    package init(rawValue: UInt8) { self.rawValue = rawValue }
    package init(_ rawValue: UInt8) { self.rawValue = rawValue }

    package static let closeNotify = Self(0)
    package static let handshakeFailure = Self(40)
    static let badCertificate = Self(42)
    static let unsupportedCertificate = Self(43)
    static let certificateRevoked = Self(44)
    static let certificateExpired = Self(45)
    static let certificateUnknown = Self(46)
    package static let unknownCA = Self(48)
    package static let protocolVersion = Self(70)
    static let insufficientSecurity = Self(71)
    static let certificateRequired = Self(116)

    /// The registry's names (IANA "TLS Alerts"), as RFC 8446 writes them.
    static let names: [UInt8: String] = [
        0: "close_notify", 10: "unexpected_message", 20: "bad_record_mac", 21: "decryption_failed",
        22: "record_overflow", 30: "decompression_failure", 40: "handshake_failure", 41: "no_certificate",
        42: "bad_certificate", 43: "unsupported_certificate", 44: "certificate_revoked", 45: "certificate_expired",
        46: "certificate_unknown", 47: "illegal_parameter", 48: "unknown_ca", 49: "access_denied",
        50: "decode_error", 51: "decrypt_error", 60: "export_restriction", 70: "protocol_version",
        71: "insufficient_security", 80: "internal_error", 86: "inappropriate_fallback", 90: "user_canceled",
        100: "no_renegotiation", 109: "missing_extension", 110: "unsupported_extension",
        111: "certificate_unobtainable", 112: "unrecognized_name", 113: "bad_certificate_status_response",
        114: "bad_certificate_hash_value", 115: "unknown_psk_identity", 116: "certificate_required",
        120: "no_application_protocol",
    ]

    /// The registry's name, or nil for an unregistered code.
    package var name: String? { Self.names[rawValue] }

    /// "alert 70 (protocol_version)", or "alert 200" for a code with no name.
    package var description: String { name.map { "alert \(rawValue) (\($0))" } ?? "alert \(rawValue)" }

    /// The alerts a client sends to say it does not accept the certificate it was shown (RFC 8446
    /// §6.2): bad_certificate, unsupported_certificate, certificate_revoked, certificate_expired,
    /// certificate_unknown, unknown_ca.
    package var refusesCertificate: Bool { (42...46).contains(rawValue) || rawValue == 48 }
}
