import Foundation

/// A leaf the local CA issued for one host: what a TLS server presents for it. The key is the
/// leaf's own, never the root's.
package struct MintedCertificate: Sendable, Equatable {
    /// The host the leaf names (its SAN), as the client asked for it.
    package let host: String
    /// The X.509 certificate, DER, signed by the local root.
    package let certificateDER: Data
    /// The leaf's private key, PKCS#8 DER.
    package let privateKeyDER: Data

    package init(host: String, certificateDER: Data, privateKeyDER: Data) {
        self.host = host
        self.certificateDER = certificateDER
        self.privateKeyDER = privateKeyDER
    }
}
