import Foundation

/// An X.509 v3 certificate (RFC 5280 §4.1), assembled field by field and signed with
/// ecdsa-with-SHA256 by an OpenSSL key:
///
///   Certificate ::= SEQUENCE { tbsCertificate TBSCertificate, signatureAlgorithm AlgorithmIdentifier,
///                              signatureValue BIT STRING }
///   TBSCertificate ::= SEQUENCE { version [0] EXPLICIT INTEGER (2 = v3), serialNumber INTEGER,
///       signature AlgorithmIdentifier, issuer Name, validity SEQUENCE { notBefore Time, notAfter Time },
///       subject Name, subjectPublicKeyInfo, extensions [3] EXPLICIT SEQUENCE OF Extension }
struct X509CertificateBuilder: Sendable {
    /// A positive serial's big-endian magnitude, at most 20 bytes (§4.1.2.2).
    var serialNumber: [UInt8]
    /// The issuer's Name, DER: byte for byte the issuer certificate's subject (RFC 5280 §7.1).
    var issuer: [UInt8]
    /// The subject's Name, DER (`X509Name.der()`).
    var subject: [UInt8]
    var notBefore: Date
    var notAfter: Date
    /// The subject's SubjectPublicKeyInfo, DER (from `X509SigningKey.subjectPublicKeyInfoDER`).
    var subjectPublicKeyInfo: [UInt8]
    var extensions: [X509Extension]

    init(serialNumber: [UInt8], issuer: [UInt8], subject: [UInt8], notBefore: Date, notAfter: Date,
                subjectPublicKeyInfo: [UInt8], extensions: [X509Extension]) {
        self.serialNumber = serialNumber
        self.issuer = issuer
        self.subject = subject
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.subjectPublicKeyInfo = subjectPublicKeyInfo
        self.extensions = extensions
    }

    /// The TBSCertificate's DER: the bytes that are signed.
    func tbsCertificateDER() throws(DERWriterFailure) -> [UInt8] {
        var writer = DERWriter()
        try writer.sequence { (tbs) throws(DERWriterFailure) in
            tbs.explicit(0) { $0.integer(2) }
            tbs.integer(magnitude: serialNumber)
            try Self.writeSignatureAlgorithm(to: &tbs)
            tbs.appendEncoded(issuer)
            try tbs.sequence { (validity) throws(DERWriterFailure) in
                try validity.time(notBefore)
                try validity.time(notAfter)
            }
            tbs.appendEncoded(subject)
            tbs.appendEncoded(subjectPublicKeyInfo)
            if !extensions.isEmpty {
                try tbs.explicit(3) { (wrapper) throws(DERWriterFailure) in
                    try wrapper.sequence { (list) throws(DERWriterFailure) in
                        for item in extensions { try item.write(to: &list) }
                    }
                }
            }
        }
        return writer.bytes
    }

    /// The signed certificate's DER.
    func signed(by key: X509SigningKey) throws(X509Failure) -> [UInt8] {
        let tbs: [UInt8]
        do { tbs = try tbsCertificateDER() } catch { throw .encoding(error) }
        let signature = try key.signSHA256(tbs)
        var writer = DERWriter()
        do {
            try writer.sequence { (certificate) throws(DERWriterFailure) in
                certificate.appendEncoded(tbs)
                try Self.writeSignatureAlgorithm(to: &certificate)
                certificate.bitString(signature)
            }
        } catch {
            throw .encoding(error)
        }
        return writer.bytes
    }

    /// AlgorithmIdentifier for ecdsa-with-SHA256: the OID alone, parameters absent (RFC 5758 §3.2).
    private static func writeSignatureAlgorithm(to writer: inout DERWriter) throws(DERWriterFailure) {
        try writer.sequence { (algorithm) throws(DERWriterFailure) in try algorithm.objectIdentifier(X509ObjectIdentifiers.ecdsaWithSHA256) }
    }
}
