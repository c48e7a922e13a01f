import COpenSSL
import Foundation
import PacketTunnel
import Shared

/// A minted leaf parsed once for OpenSSL: its `X509` and `EVP_PKEY`, shared by every server
/// session for the host (`SSL_use_certificate` takes its own reference) and freed with the last
/// owner.
final class LeafCredentials {
    let certificate: OpaquePointer
    let privateKey: OpaquePointer

    init(_ minted: MintedCertificate) throws(TLSSessionFailure) {
        let certificate: OpaquePointer? = minted.certificateDER.withUnsafeBytes { raw in
            var cursor = raw.bindMemory(to: UInt8.self).baseAddress
            return d2i_X509(nil, &cursor, raw.count)
        }
        guard let certificate else {
            throw TLSSessionFailure("the leaf minted for \(minted.host) is not a DER certificate OpenSSL reads: "
                                    + OpenSSLErrorQueue.drain(fallback: "no reason given"))
        }
        let privateKey: OpaquePointer? = minted.privateKeyDER.withUnsafeBytes { raw in
            var cursor = raw.bindMemory(to: UInt8.self).baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, raw.count)
        }
        guard let privateKey else {
            X509_free(certificate)
            throw TLSSessionFailure("the key minted for \(minted.host) is not a DER private key OpenSSL reads: "
                                    + OpenSSLErrorQueue.drain(fallback: "no reason given"))
        }
        guard X509_check_private_key(certificate, privateKey) == 1 else {
            X509_free(certificate)
            EVP_PKEY_free(privateKey)
            throw TLSSessionFailure("the key minted for \(minted.host) is not its leaf's key")
        }
        self.certificate = certificate
        self.privateKey = privateKey
    }

    deinit {
        X509_free(certificate)
        EVP_PKEY_free(privateKey)
    }
}
