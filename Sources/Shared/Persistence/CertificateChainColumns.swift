import Foundation

/// `tls_chain_state`: what was read of the server's certificates.
enum CertificateChainState: Int64, CaseIterable {
    /// The whole chain; `tls_chain` holds it.
    case complete = 0
    /// Only the chain's beginning was kept; `tls_chain` holds that.
    case beginningOnly = 1
    case resumedSession = 2
    case continuedWithoutCertificate = 3

    init(_ absence: ServerCertificateAbsence) {
        switch absence {
        case .resumedSession: self = .resumedSession
        case .continuedWithoutCertificate: self = .continuedWithoutCertificate
        }
    }
}

/// `tls_chain`: a JSON array of `{subject, subjectTruncated, issuer, issuerTruncated, notAfter}`,
/// `notAfter` in seconds since 1970, in the order sent.
struct CertificateChainColumn: Codable {
    var subject: String
    var subjectTruncated: Bool
    var issuer: String
    var issuerTruncated: Bool
    var notAfter: Double

    static func encode(_ certificates: [ServerCertificate]) -> String {
        let entries = certificates.map {
            CertificateChainColumn(subject: $0.subject.text, subjectTruncated: $0.subject.isTruncated,
                                   issuer: $0.issuer.text, issuerTruncated: $0.issuer.isTruncated,
                                   notAfter: $0.notAfter.timeIntervalSince1970)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        // Strings, booleans and (with the strategy above) any Double always encode.
        return (try? encoder.encode(entries)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
    }

    static func decode(_ text: String) -> [ServerCertificate]? {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let entries = try? decoder.decode([CertificateChainColumn].self, from: Data(text.utf8)) else { return nil }
        return entries.map {
            ServerCertificate(subject: CertificateName(text: $0.subject, isTruncated: $0.subjectTruncated),
                              issuer: CertificateName(text: $0.issuer, isTruncated: $0.issuerTruncated),
                              notAfter: Date(timeIntervalSince1970: $0.notAfter))
        }
    }
}
