/// The object identifiers a certificate of ours names, each spelled once (RFC 5280 §4.1, §4.2;
/// RFC 5758 §3.2; X.520).
enum X509ObjectIdentifiers {
    /// ecdsa-with-SHA256 (RFC 5758 §3.2): the signature algorithm, parameters absent.
    static let ecdsaWithSHA256 = "1.2.840.10045.4.3.2"
    /// id-at-commonName, id-at-organizationName (X.520).
    static let commonName = "2.5.4.3"
    static let organizationName = "2.5.4.10"
    /// The extensions (RFC 5280 §4.2.1.x).
    static let subjectKeyIdentifier = "2.5.29.14"
    static let keyUsage = "2.5.29.15"
    static let subjectAltName = "2.5.29.17"
    static let basicConstraints = "2.5.29.19"
    static let authorityKeyIdentifier = "2.5.29.35"
    static let extendedKeyUsage = "2.5.29.37"
    /// id-kp-serverAuth (RFC 5280 §4.2.1.12).
    static let serverAuth = "1.3.6.1.5.5.7.3.1"
}
