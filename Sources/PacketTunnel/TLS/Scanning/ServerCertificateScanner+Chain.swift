import Shared

extension ServerCertificateScanner {
    /// Reads a Certificate message body, or its first `maxChainBytes` when it declared more.
    ///
    /// Grammar (RFC 5246 §7.4.2): ASN.1Cert certificate_list<0..2^24-1>; ASN.1Cert<1..2^24-1>.
    /// The list's length must be the body's, and the entries must fill it exactly. A server must
    /// send at least one certificate, so an empty list is malformed. When the body was cut, the
    /// entries wholly inside what was kept are read, and one that begins inside it is read from its
    /// beginning (`ServerCertificateReader.certificate(fromBeginning:)`); the chain is complete
    /// when that one was the list's last. An unreadable certificate stops the reading: the ones
    /// before it are kept as an incomplete chain; an unreadable leaf is malformed.
    static func chain(_ message: [UInt8], declaredLength: Int, config: Config) -> Outcome {
        let isCut = message.count < declaredLength
        guard message.count >= 3 else {
            // Only a cut below three bytes gets here (the header check asked for three).
            return .found(.chain(ServerCertificateChain(certificates: [], isComplete: false)))
        }
        let listLength = Int(message[0]) << 16 | Int(message[1]) << 8 | Int(message[2])
        guard listLength == declaredLength - 3, listLength > 0 else { return .unavailable(.malformed) }
        var certificates: [ServerCertificate] = []
        var index = 3
        func incomplete() -> Outcome {
            .found(.chain(ServerCertificateChain(certificates: certificates, isComplete: false)))
        }
        while index < message.count {
            if certificates.count == config.maxCertificates { return incomplete() }
            guard index + 3 <= message.count else { return isCut ? incomplete() : .unavailable(.malformed) }
            let length = Int(message[index]) << 16 | Int(message[index + 1]) << 8 | Int(message[index + 2])
            guard length > 0 else { return .unavailable(.malformed) }
            let end = index + 3 + length
            guard end <= message.count else {
                guard isCut else { return .unavailable(.malformed) }
                guard let certificate = ServerCertificateReader.certificate(
                    fromBeginning: message[(index + 3)...], maxNameLength: config.maxNameLength)
                else { return incomplete() }
                certificates.append(certificate)
                let isLast = end == declaredLength
                return .found(.chain(ServerCertificateChain(certificates: certificates, isComplete: isLast)))
            }
            guard let certificate = ServerCertificateReader.recentCertificate(
                fromDER: message[(index + 3)..<end], maxNameLength: config.maxNameLength)
            else { return certificates.isEmpty ? .unavailable(.malformed) : incomplete() }
            certificates.append(certificate)
            index = end
        }
        return .found(.chain(ServerCertificateChain(certificates: certificates, isComplete: !isCut)))
    }
}
