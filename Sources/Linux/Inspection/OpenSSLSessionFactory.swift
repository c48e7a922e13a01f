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
    package static let leafCapacity = 1_024

    private let mint: (String) throws -> MintedCertificate
    private let server: OpenSSLContext
    private let client: OpenSSLContext
    private var leaves = BoundedRecencyCache<String, LeafCredentials>(capacity: OpenSSLSessionFactory.leafCapacity)
    /// Leaves minted and parsed, for the "a second connection mints nothing" check.
    package private(set) var leavesMinted = 0

    /// `mint` makes the leaf for a host (the local CA's cached `mintLeaf`); `keyLog`, when given,
    /// receives the secrets of both legs of every session.
    package init(mint: @escaping (String) throws -> MintedCertificate, upstreamTrust: UpstreamTrust,
                 keyLog: TLSKeyLog? = nil) throws(TLSSessionFailure) {
        self.mint = mint
        server = try OpenSSLContext(.server, upstreamTrust: upstreamTrust, keyLog: keyLog)
        client = try OpenSSLContext(.client, upstreamTrust: upstreamTrust, keyLog: keyLog)
    }

    package func makeServer(host: String, applicationProtocol: String?) throws(TLSSessionFailure) -> any TLSSession {
        try OpenSSLSession(server: server, leaf: leaf(for: host), applicationProtocol: applicationProtocol)
    }

    package func makeClient(host: String, applicationProtocols: [String]) throws(TLSSessionFailure) -> any TLSSession {
        try OpenSSLSession(client: client, host: host, applicationProtocols: applicationProtocols)
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
