import Foundation

/// Reads what TunnelVision keeps of one X.509 certificate — subject, issuer, notAfter — from its
/// DER, with no cryptography: nothing is verified, only read (the chain's trust is not ours to
/// judge from the outside).
///
/// Grammar (RFC 5280 §4.1):
///   Certificate  ::= SEQUENCE { tbsCertificate, signatureAlgorithm AlgorithmIdentifier,
///                               signatureValue BIT STRING }
///   TBSCertificate ::= SEQUENCE { version [0] EXPLICIT DEFAULT v1, serialNumber INTEGER,
///                                 signature AlgorithmIdentifier, issuer Name, validity Validity,
///                                 subject Name, subjectPublicKeyInfo SEQUENCE, …optional fields }
///   Validity ::= SEQUENCE { notBefore Time, notAfter Time }
/// Every length must end exactly where its container does; the optional fields after the key are
/// only checked to be well-formed elements. Names are `DistinguishedNameText`, times
/// `CertificateTime`.
package enum ServerCertificateReader {
    /// The certificate in `der` (exactly one, nothing after it), or nil when it cannot be read.
    package static func certificate(fromDER der: ArraySlice<UInt8>, maxNameLength: Int) -> ServerCertificate? {
        var outer = DERReader(der)
        guard let certificate = outer.read(.sequence), outer.isAtEnd else { return nil }
        var parts = DERReader(certificate.content)
        guard let tbs = parts.read(.sequence), parts.read(.sequence) != nil, parts.read(.bitString) != nil,
              parts.isAtEnd else { return nil }
        var fields = DERReader(tbs.content)
        guard let certificate = leadingFields(&fields, maxNameLength: maxNameLength),
              fields.read(.sequence) != nil  // subjectPublicKeyInfo
        else { return nil }
        while !fields.isAtEnd {
            do { _ = try fields.read() } catch { return nil }
        }
        return certificate
    }

    /// The certificate whose first bytes `beginning` are, when they reach past its subject (RFC
    /// 5280 puts every field kept before the key and the extensions): how a certificate larger than what
    /// is kept of a Certificate message is still read — Zeek's fragmented-handshake trace carries
    /// one of 330 KB, with 10 000 names. Nothing after the subject is checked; nil when the fields kept
    /// are not all there, or not readable.
    package static func certificate(fromBeginning beginning: ArraySlice<UInt8>, maxNameLength: Int) -> ServerCertificate? {
        var outer = DERReader(beginning)
        guard let certificate = outer.readBeginning(.sequence) else { return nil }
        var parts = DERReader(certificate.content)
        guard let tbs = parts.readBeginning(.sequence) else { return nil }
        var fields = DERReader(tbs.content)
        return leadingFields(&fields, maxNameLength: maxNameLength)
    }

    /// TBSCertificate's fields up to the subject, read from `fields`.
    private static func leadingFields(_ fields: inout DERReader, maxNameLength: Int) -> ServerCertificate? {
        _ = fields.read(.contextSpecific(0, constructed: true))
        guard fields.read(.integer) != nil, fields.read(.sequence) != nil,
              let issuerElement = fields.read(.sequence), let validity = fields.read(.sequence),
              let subjectElement = fields.read(.sequence)
        else { return nil }
        var times = DERReader(validity.content)
        guard let notBefore = nextElement(&times), CertificateTime.date(from: notBefore) != nil,
              let notAfterElement = nextElement(&times), times.isAtEnd,
              let notAfter = CertificateTime.date(from: notAfterElement),
              let issuer = DistinguishedNameText.name(issuerElement, maxLength: maxNameLength),
              let subject = DistinguishedNameText.name(subjectElement, maxLength: maxNameLength)
        else { return nil }
        return ServerCertificate(subject: subject, issuer: issuer, notAfter: notAfter)
    }

    private static func nextElement(_ reader: inout DERReader) -> DERReader.Element? {
        do { return try reader.read() } catch { return nil }
    }
}
