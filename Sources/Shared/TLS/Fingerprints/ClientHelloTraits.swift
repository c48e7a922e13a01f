/// What a ClientHello's fingerprints are made of (JA4, JA3): the raw code points in wire order,
/// GREASE values (RFC 8701) removed where the specs remove them. Gathered once per hello by the
/// scanner that reads it; the fingerprints are computed from it once, and it is then dropped.
package struct ClientHelloTraits: Sendable, Hashable {
    /// The transport the hello travelled on: JA4's first character.
    package enum Transport: Sendable, Hashable {
        /// TLS over TCP ("t").
        case tcp
        /// A QUIC Initial's CRYPTO stream ("q").
        case quic
    }

    package var transport: Transport
    /// `legacy_version` (RFC 8446 §4.1.2), as sent.
    package var legacyVersion: UInt16
    /// Cipher suites in order, GREASE removed; signalling values (SCSV) kept.
    package var cipherSuites: [UInt16]
    /// Extension types in order, GREASE removed.
    package var extensionTypes: [UInt16]
    /// `supported_versions` (43) without GREASE; nil when the hello has no such extension.
    package var supportedVersions: [UInt16]?
    /// `signature_algorithms` (13) in order, GREASE removed; empty when absent.
    package var signatureAlgorithms: [UInt16]
    /// `supported_groups` (10) in order, GREASE removed; empty when absent.
    package var groups: [UInt16]
    /// `ec_point_formats` (11) in order; empty when absent.
    package var pointFormats: [UInt8]
    /// The first ALPN protocol name that is not GREASE, its bytes as sent; nil without ALPN.
    package var firstApplicationProtocol: [UInt8]?

    package init(transport: Transport, legacyVersion: UInt16, cipherSuites: [UInt16], extensionTypes: [UInt16],
                supportedVersions: [UInt16]? = nil, signatureAlgorithms: [UInt16] = [], groups: [UInt16] = [],
                pointFormats: [UInt8] = [], firstApplicationProtocol: [UInt8]? = nil) {
        self.transport = transport
        self.legacyVersion = legacyVersion
        self.cipherSuites = cipherSuites
        self.extensionTypes = extensionTypes
        self.supportedVersions = supportedVersions
        self.signatureAlgorithms = signatureAlgorithms
        self.groups = groups
        self.pointFormats = pointFormats
        self.firstApplicationProtocol = firstApplicationProtocol
    }
}
