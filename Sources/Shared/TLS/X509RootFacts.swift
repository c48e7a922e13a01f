import Foundation

/// What a root certificate of ours says, read back from its DER (RFC 5280 §4.1) without
/// cryptography: the subject's own bytes (every leaf's issuer, byte for byte), its validity and
/// its public key.
package struct X509RootFacts: Sendable, Equatable {
    let subjectDER: [UInt8]
    package let notBefore: Date
    package let notAfter: Date
    let subjectPublicKeyInfo: [UInt8]

    /// Nil when `certificateDER` is not one whole certificate.
    package init?(certificateDER: [UInt8]) {
        var outer = DERReader(certificateDER[...])
        guard let certificate = outer.read(.sequence), outer.isAtEnd else { return nil }
        var parts = DERReader(certificate.content)
        guard let tbs = parts.read(.sequence), parts.read(.sequence) != nil, parts.read(.bitString) != nil, parts.isAtEnd else { return nil }
        var fields = DERReader(tbs.content)
        _ = fields.read(.contextSpecific(0, constructed: true))
        guard fields.read(.integer) != nil, fields.read(.sequence) != nil, fields.read(.sequence) != nil,
              let validity = fields.read(.sequence), let subject = fields.read(.sequence),
              let publicKey = fields.read(.sequence) else { return nil }
        var times = DERReader(validity.content)
        guard let first = try? times.read(), let second = try? times.read(), times.isAtEnd,
              let notBefore = CertificateTime.date(from: first), let notAfter = CertificateTime.date(from: second) else { return nil }
        subjectDER = Array(subject.encoded)
        self.notBefore = notBefore
        self.notAfter = notAfter
        subjectPublicKeyInfo = Array(publicKey.encoded)
    }
}
