import COpenSSL
import Foundation
import PacketTunnel
import Shared

/// The product's `TLSSessionFactory`: OpenSSL sessions for both legs of an inspected flow. One
/// context per role, made here once; a host's leaf minted and parsed once, then reused for its
/// later connections (bounded: the least recently used host is dropped past `leafCapacity`).
///
/// Used from the tunnel's event-loop thread only, like the relay that calls it.
package final class OpenSSLSessionFactory: TLSSessionFactory {
    static let leafCapacity = 1_024

    private let mint: (String) throws -> MintedCertificate
    private let server: OpenSSLContext
    private let client: OpenSSLContext
    private var leaves = BoundedRecencyCache<String, LeafCredentials>(capacity: OpenSSLSessionFactory.leafCapacity)
    /// Leaves minted and parsed, for the "a second connection mints nothing" check.
    package private(set) var leavesMinted = 0
    package let capabilities: UpstreamCapabilities
    /// OpenSSL's name of each cipher suite the client context can offer, by code point.
    private let cipherNames: [UInt16: String]

    /// `mint` makes the leaf for a host (the local CA's cached `mintLeaf`); `keyLog`, when given,
    /// receives the secrets of both legs of every session.
    package init(mint: @escaping (String) throws -> MintedCertificate, upstreamTrust: UpstreamTrust,
                 keyLog: TLSKeyLog? = nil) throws(TLSSessionFailure) {
        self.mint = mint
        server = try OpenSSLContext(.server, upstreamTrust: upstreamTrust, keyLog: keyLog)
        client = try OpenSSLContext(.client, upstreamTrust: upstreamTrust, keyLog: keyLog)
        let suites = try Self.supportedCipherSuites(client)
        cipherNames = suites.names
        capabilities = UpstreamCapabilities(tls12CipherSuites: suites.tls12, tls13CipherSuites: suites.tls13)
    }

    /// Every cipher suite the client context could offer at its versions and security level, with
    /// every suite the library has enabled first (the defaults leave some out, e.g. AES-CCM).
    private static func supportedCipherSuites(_ context: OpenSSLContext) throws(TLSSessionFailure)
        -> (names: [UInt16: String], tls12: Set<UInt16>, tls13: Set<UInt16>) {
        OpenSSLErrorQueue.clear()
        guard let probe = SSL_new(context.pointer) else {
            throw TLSSessionFailure("OpenSSL could not make a session: " + OpenSSLErrorQueue.drain(fallback: "out of memory?"))
        }
        defer { SSL_free(probe) }
        _ = SSL_set_cipher_list(probe, "ALL")
        _ = SSL_set_ciphersuites(probe, tls13SuiteNames)
        var ciphers = [OpaquePointer?](repeating: nil, count: 512)
        let count = Int(tv_inspection_supported_ciphers(probe, &ciphers, Int32(ciphers.count)))
        var names: [UInt16: String] = [:], tls12 = Set<UInt16>(), tls13 = Set<UInt16>()
        for cipher in ciphers[..<count].compactMap({ $0 }) {
            let id = UInt16(truncatingIfNeeded: SSL_CIPHER_get_protocol_id(cipher))
            names[id] = String(cString: SSL_CIPHER_get_name(cipher))
            // RFC 8446 §B.4: TLS 1.3's suites, and only they, are {0x13, 0xXX}.
            if id >> 8 == 0x13 { tls13.insert(id) } else { tls12.insert(id) }
        }
        OpenSSLErrorQueue.clear()
        return (names, tls12, tls13)
    }

    /// RFC 8446 §B.4's five suites, by OpenSSL's (and the RFC's) names.
    private static let tls13SuiteNames = "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:"
        + "TLS_AES_128_CCM_SHA256:TLS_AES_128_CCM_8_SHA256"

    package func makeServer(host: String, applicationProtocol: String?) throws(TLSSessionFailure) -> any TLSSession {
        try OpenSSLSession(server: server, leaf: leaf(for: host), applicationProtocol: applicationProtocol)
    }

    package func makeClient(_ offer: UpstreamOffer) throws(TLSSessionFailure) -> any TLSSession {
        try OpenSSLSession(client: client, offer: offer, cipherNames: cipherNames)
    }

    private func leaf(for host: String) throws(TLSSessionFailure) -> LeafCredentials {
        if let cached = leaves.value(for: host) { return cached }
        let minted: MintedCertificate
        do {
            minted = try mint(host)
        } catch {
            throw TLSSessionFailure("no leaf could be minted for \(host): \(error)")
        }
        let credentials = try LeafCredentials(minted)
        leaves.insert(credentials, for: host)
        leavesMinted += 1
        return credentials
    }
}
