/// Why the encryption check could not assess a flow (audit.md § Encryption). Raw values are
/// stable identifiers.
package enum EncryptionGap: String, CoverageGap, CaseIterable {
    /// The TCP stream began with bytes that are neither a TLS handshake nor an HTTP request.
    case unrecognisedOpening
    /// The TCP stream's first bytes were not read (too few, or recorded before openings were kept)
    /// and nothing else shows TLS; a port says nothing.
    case openingNotRead
    /// The UDP datagrams carried a QUIC version not known to be encrypted with TLS 1.3.
    case unrecognisedQUICVersion
    /// No QUIC version was read from the UDP datagrams (DNS among them): their content is not known.
    case datagramsNotRead

    package var identifier: String { rawValue }

    package var statement: String {
        switch self {
        case .unrecognisedOpening:
            "The TCP stream began with neither a TLS handshake nor an HTTP request, so whether it is encrypted is not known."
        case .openingNotRead:
            "The TCP stream's first bytes were not read and nothing else showed TLS, so whether it is encrypted is not known."
        case .unrecognisedQUICVersion:
            "The datagrams carried a QUIC version not known to be encrypted with TLS 1.3."
        case .datagramsNotRead:
            "The datagrams' content was not read, so whether they are encrypted is not known."
        }
    }
}
