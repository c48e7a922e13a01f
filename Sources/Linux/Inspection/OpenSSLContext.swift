import COpenSSL
import Foundation
import PacketTunnel

/// One `SSL_CTX` per role, made once and shared by every session of that role: what a context
/// costs is paid per tunnel, not per connection. Each session keeps its context (and so the key
/// log the context's callback writes to) alive for as long as its `SSL` lives.
final class OpenSSLContext {
    enum Role { case server, client }

    let role: Role
    let pointer: OpaquePointer
    /// Held here so the callback's unretained pointer stays valid as long as the context.
    private let keyLog: TLSKeyLog?

    init(_ role: Role, upstreamTrust: UpstreamTrust, keyLog: TLSKeyLog?) throws(TLSSessionFailure) {
        OpenSSLErrorQueue.clear()
        guard let pointer = SSL_CTX_new(role == .server ? TLS_server_method() : TLS_client_method()) else {
            throw TLSSessionFailure("OpenSSL could not make a TLS \(role) context: "
                                    + OpenSSLErrorQueue.drain(fallback: "no reason given"))
        }
        self.role = role
        self.pointer = pointer
        self.keyLog = keyLog
        guard tv_inspection_set_min_version(pointer, TLS1_2_VERSION) == 1 else {
            throw TLSSessionFailure("OpenSSL refused TLS 1.2 as the lowest version: "
                                    + OpenSSLErrorQueue.drain(fallback: "no reason given"))
        }
        // Renegotiation would let a peer make `send` read; neither leg needs it.
        tv_inspection_disable_renegotiation(pointer)
        if let keyLog {
            SSL_CTX_set_ex_data(pointer, 0, Unmanaged.passUnretained(keyLog).toOpaque())
            SSL_CTX_set_keylog_callback(pointer, OpenSSLCallbacks.keyLogLine)
        }
        switch role {
        case .server:
            SSL_CTX_set_alpn_select_cb(pointer, OpenSSLCallbacks.selectApplicationProtocol, nil)
        case .client:
            SSL_CTX_set_verify(pointer, SSL_VERIFY_PEER, nil)
            // A server that asks for the app's certificate cannot be answered for it: the
            // handshake stops there, before anything reached the app, and the flow steps aside.
            SSL_CTX_set_client_cert_cb(pointer, OpenSSLCallbacks.certificateRequested)
            try trust(upstreamTrust)
        }
    }

    deinit { SSL_CTX_free(pointer) }

    private func trust(_ upstreamTrust: UpstreamTrust) throws(TLSSessionFailure) {
        switch upstreamTrust {
        case .system:
            guard SSL_CTX_set_default_verify_paths(pointer) == 1 else {
                throw TLSSessionFailure("OpenSSL could not load the system's trust store: "
                                        + OpenSSLErrorQueue.drain(fallback: "no reason given"))
            }
        case .file(let file):
            guard SSL_CTX_load_verify_locations(pointer, file.path, nil) == 1 else {
                throw TLSSessionFailure("the upstream CA file \(file.path) could not be read as PEM certificates ("
                                        + OpenSSLErrorQueue.drain(fallback: "no reason given")
                                        + "); give --upstream-ca a PEM file of the CA that signed the servers' leaves")
            }
        }
    }
}
