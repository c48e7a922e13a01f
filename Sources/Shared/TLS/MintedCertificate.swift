import Foundation

/// A leaf the local CA issued for one host: what a TLS server presents for it. The key is the
/// leaf's own, never the root's.
public struct MintedCertificate: Sendable, Equatable {
    /// The host the leaf names (its SAN), as the client asked for it.
    public let host: String
    /// The X.509 certificate, DER, signed by the local root.
    public let certificateDER: Data
    /// The leaf's private key, PKCS#8 DER.
    public let privateKeyDER: Data

    public init(host: String, certificateDER: Data, privateKeyDER: Data) {
        self.host = host
        self.certificateDER = certificateDER
        self.privateKeyDER = privateKeyDER
    }
}
