import Foundation

/// A distinguished name as text, and whether it was cut to fit the caps the reader keeps.
package struct CertificateName: Sendable, Hashable, Codable {
    package var text: String
    package var isTruncated: Bool

    package init(text: String, isTruncated: Bool = false) {
        self.text = text
        self.isTruncated = isTruncated
    }
}

/// What is kept of one certificate the server sent.
package struct ServerCertificate: Sendable, Hashable, Codable {
    package var subject: CertificateName
    package var issuer: CertificateName
    package var notAfter: Date

    package init(subject: CertificateName, issuer: CertificateName, notAfter: Date) {
        self.subject = subject
        self.issuer = issuer
        self.notAfter = notAfter
    }
}

/// The certificates of a server's Certificate message, in the order sent (leaf first).
package struct ServerCertificateChain: Sendable, Hashable, Codable {
    package var certificates: [ServerCertificate]
    /// False when only the chain's beginning was kept (the message exceeded what is read).
    package var isComplete: Bool

    package init(certificates: [ServerCertificate], isComplete: Bool) {
        self.certificates = certificates
        self.isComplete = isComplete
    }
}

/// Why a handshake that was followed in the clear (TLS ≤ 1.2) carried no certificate.
package enum ServerCertificateAbsence: String, Sendable, Hashable, Codable, CaseIterable {
    /// The server resumed an earlier session, which by design sends no Certificate message.
    case resumedSession
    /// A full handshake went on to its next message without a Certificate message (anonymous or
    /// PSK suites).
    case continuedWithoutCertificate
}

/// What was read of the server's certificates. Only TLS ≤ 1.2 sends them in the clear; a nil
/// reading says nothing about why (TLS 1.3 encrypts them — the version tells).
package enum ServerCertificateReading: Sendable, Hashable, Codable {
    case chain(ServerCertificateChain)
    case notSent(ServerCertificateAbsence)
}
