import COpenSSL
import Foundation
import PacketTunnel
import Shared

/// One TLS endpoint of an inspected flow: an `SSL` over memory (`OpenSSLRecordStream`), fed by
/// the relay from the stream it already holds (DESIGN.md: no socket, no bridge). Every call
/// reads all the peer's records it was given and hands out all OpenSSL wrote, so nothing is
/// buffered beyond one call's input.
///
/// Used on one thread (the tunnel's event loop); OpenSSL's error queue is per thread and is
/// cleared on entry to every call.
final class OpenSSLSession: TLSSession {
    private enum Phase { case handshaking, established, ended }

    /// Plaintext is encrypted at most one TLS record's worth per `SSL_write` (RFC 8446 §5.1).
    private static let recordPlaintext = 16 * 1024
    /// What a record adds to its plaintext, at most: the header and the cipher's expansion
    /// (RFC 8446 §5.2 allows 256; TLS 1.2's CBC suites with their IV, MAC and padding stay below).
    private static let recordExpansion = 5 + 256

    private let ssl: OpaquePointer
    private let stream: OpenSSLRecordStream
    /// Keeps the `SSL_CTX` and its key log alive while this `SSL` points at them.
    private let context: OpenSSLContext
    /// A server's ALPN answer, in wire bytes; read by the select callback.
    let applicationProtocolAnswer: [UInt8]?
    private var phase = Phase.handshaking
    private var sentCloseNotify = false
    /// The peer's close_notify arrived: it sends nothing more, and anything after it is ignored.
    private var receivedCloseNotify = false
    private var alertFromPeer: UInt8?

    private(set) var negotiated: NegotiatedTLS?
    private(set) var applicationProtocol: String?
    var isEstablished: Bool { phase == .established }

    /// A server presenting `leaf`, answering ALPN with `applicationProtocol` when offered.
    init(server context: OpenSSLContext, leaf: LeafCredentials, applicationProtocol: String?) throws(TLSSessionFailure) {
        // Before the SSL exists: a throw from here on would skip deinit and leak it.
        applicationProtocolAnswer = try applicationProtocol.map { (name) throws(TLSSessionFailure) in
            Array(try ALPNWireList.encode([name]).dropFirst())
        }
        (ssl, stream) = try Self.makeSSL(context)
        self.context = context
        attach()
        // Each takes its own reference: the cached leaf may be dropped while this session lives.
        guard SSL_use_certificate(ssl, leaf.certificate) == 1, SSL_use_PrivateKey(ssl, leaf.privateKey) == 1 else {
            throw TLSSessionFailure("OpenSSL refused the leaf: " + OpenSSLErrorQueue.drain(fallback: "no reason given"))
        }
        SSL_set_accept_state(ssl)
    }

    /// A client for `offer.host`: SNI (a DNS name only, RFC 6066 §3), the name verified against the
    /// context's trust store, and nothing offered beyond `offer` — its versions, cipher suites,
    /// groups, signature algorithms and ALPN list, in the client's order.
    init(client context: OpenSSLContext, offer: UpstreamOffer, cipherNames: [UInt16: String]) throws(TLSSessionFailure) {
        (ssl, stream) = try Self.makeSSL(context)
        self.context = context
        applicationProtocolAnswer = nil
        attach()
        let host = offer.host
        let named: Bool
        if IPAddress(parsing: host) != nil {
            named = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1
        } else {
            named = tv_inspection_set_sni(ssl, host) == 1 && SSL_set1_host(ssl, host) == 1
        }
        guard named else {
            throw TLSSessionFailure("OpenSSL refused \"\(host)\" as the server's name: "
                                    + OpenSSLErrorQueue.drain(fallback: "no reason given"))
        }
        try limit(to: offer, cipherNames: cipherNames)
        let alpn = try ALPNWireList.encode(offer.applicationProtocols)
        // SSL_set_alpn_protos answers 0 on success, unlike its neighbours.
        guard alpn.isEmpty || SSL_set_alpn_protos(ssl, alpn, UInt32(alpn.count)) == 0 else {
            throw TLSSessionFailure("OpenSSL refused the ALPN offer \(offer.applicationProtocols)")
        }
        SSL_set_connect_state(ssl)
    }

    /// Holds this client to `offer`: each list set only when the offer has one, so the library's
    /// own stands where the client sent none.
    private func limit(to offer: UpstreamOffer, cipherNames: [UInt16: String]) throws(TLSSessionFailure) {
        func refused(_ what: String) -> TLSSessionFailure {
            TLSSessionFailure("OpenSSL refused \(what): " + OpenSSLErrorQueue.drain(fallback: "no reason given"))
        }
        guard tv_inspection_set_session_versions(ssl, Int32(offer.minimumVersion.rawValue), Int32(offer.maximumVersion.rawValue)) == 1
        else { throw refused("the versions \(offer.minimumVersion.name) to \(offer.maximumVersion.name)") }
        let tls12 = offer.tls12CipherSuites.compactMap { cipherNames[$0] }.joined(separator: ":")
        if !tls12.isEmpty, SSL_set_cipher_list(ssl, tls12) != 1 { throw refused("the TLS 1.2 cipher suites \(tls12)") }
        let tls13 = offer.tls13CipherSuites.compactMap { cipherNames[$0] }.joined(separator: ":")
        if !tls13.isEmpty, SSL_set_ciphersuites(ssl, tls13) != 1 { throw refused("the TLS 1.3 cipher suites \(tls13)") }
        if let groups = offer.groups?.joined(separator: ":"), tv_inspection_set_groups(ssl, groups) != 1 {
            throw refused("the groups \(groups)")
        }
        if let schemes = offer.signatureAlgorithms?.joined(separator: ":"), tv_inspection_set_sigalgs(ssl, schemes) != 1 {
            throw refused("the signature algorithms \(schemes)")
        }
    }

    deinit { SSL_free(ssl) }

    private static func makeSSL(_ context: OpenSSLContext) throws(TLSSessionFailure) -> (OpaquePointer, OpenSSLRecordStream) {
        OpenSSLErrorQueue.clear()
        let stream = try OpenSSLRecordStream()
        guard let ssl = SSL_new(context.pointer) else {
            BIO_free(stream.bio)
            throw TLSSessionFailure("OpenSSL could not make a session: " + OpenSSLErrorQueue.drain(fallback: "out of memory?"))
        }
        SSL_set_bio(ssl, stream.bio, stream.bio)  // the SSL owns it from here (one reference for both roles)
        return (ssl, stream)
    }

    /// Points the callbacks back at this object (unretained: it owns the `SSL`).
    private func attach() {
        SSL_set_ex_data(ssl, 0, Unmanaged.passUnretained(self).toOpaque())
        SSL_set_info_callback(ssl, OpenSSLCallbacks.info)
    }

    func peerSentFatalAlert(_ code: UInt8) {
        if alertFromPeer == nil { alertFromPeer = code }
    }

    // MARK: TLSSession

    func start() -> TLSSessionStep {
        guard phase == .handshaking, context.role == .client else { return TLSSessionStep() }
        OpenSSLErrorQueue.clear()
        var step = TLSSessionStep()
        advance(&step)
        step.toPeer = stream.takeOutput()
        return step
    }

    func receive(_ records: Data) -> TLSSessionStep {
        var step = TLSSessionStep()
        // After its close_notify the peer has nothing more to say (RFC 8446 §6.1).
        guard phase != .ended, !receivedCloseNotify, !records.isEmpty else { return step }
        OpenSSLErrorQueue.clear()
        stream.feed(records)
        advance(&step)
        // OpenSSL reads until it wants more, so bytes are left only where the session stopped.
        stream.releaseInput(discardingUnread: phase == .ended || receivedCloseNotify)
        step.toPeer = stream.takeOutput()
        return step
    }

    func send(_ plaintext: Data) -> TLSSessionStep {
        var step = TLSSessionStep()
        guard phase != .ended else { return step }
        OpenSSLErrorQueue.clear()
        guard phase == .established, !sentCloseNotify else {
            finish(&step, .failed(sentCloseNotify ? "plaintext sent after our close_notify"
                                                  : "plaintext sent before the handshake finished"))
            return step
        }
        let records = (plaintext.count + Self.recordPlaintext - 1) / Self.recordPlaintext
        stream.reserveOutput(plaintext.count + records * Self.recordExpansion)
        var offset = plaintext.startIndex
        while offset < plaintext.endIndex {
            let chunk = plaintext[offset..<min(offset + Self.recordPlaintext, plaintext.endIndex)]
            let written = chunk.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
            guard written > 0 else {
                stop(&step, result: written)
                break
            }
            offset += Int(written)  // partial writes resume where OpenSSL stopped
        }
        step.toPeer = stream.takeOutput()
        return step
    }

    func receiveEnd() -> TLSSessionStep {
        var step = TLSSessionStep()
        // After the handshake a FIN ends what the peer sends, not the session: we may still send.
        if phase == .handshaking { finish(&step, .streamEndedInHandshake) }
        return step
    }

    func close() -> TLSSessionStep {
        var step = TLSSessionStep()
        guard phase == .established, !sentCloseNotify else { return step }
        OpenSSLErrorQueue.clear()
        sentCloseNotify = true
        _ = SSL_shutdown(ssl)  // 0: ours is sent, the peer's not yet read; 1: both were
        step.toPeer = stream.takeOutput()
        OpenSSLErrorQueue.clear()
        return step
    }

    // MARK: Driving OpenSSL

    /// Runs the handshake as far as the bytes allow, then reads every record there is.
    private func advance(_ step: inout TLSSessionStep) {
        if phase == .handshaking {
            let result = SSL_do_handshake(ssl)
            guard result == 1 else {
                switch SSL_get_error(ssl, result) {
                case SSL_ERROR_WANT_READ: break
                case SSL_ERROR_WANT_X509_LOOKUP: stop(&step, .certificateRequested, reason: "the server asked for a certificate")
                default: stop(&step, result: result)
                }
                return
            }
            phase = .established
            step.becameEstablished = true
            readNegotiated()
        }
        guard phase == .established, !receivedCloseNotify else { return }
        var plaintext = PlaintextBuffer(capacity: stream.unreadCount + Self.recordPlaintext)
        defer { step.plaintext = plaintext.take() }
        while phase == .established, !receivedCloseNotify {
            guard let room = plaintext.room() else {
                finish(&step, .failed("out of memory for the plaintext"))
                return
            }
            let count = SSL_read(ssl, room.baseAddress, Int32(clamping: room.count))
            guard count > 0 else {
                switch SSL_get_error(ssl, count) {
                case SSL_ERROR_WANT_READ: break
                case SSL_ERROR_ZERO_RETURN:
                    // Its close_notify: it sends nothing more; ours waits for whoever mirrors it.
                    receivedCloseNotify = true
                    step.peerClosed = true
                default:
                    stop(&step, result: count)
                    return
                }
                break
            }
            plaintext.count += Int(count)
        }
    }

    /// Ends the session from a call that returned `result` without wanting more bytes.
    private func stop(_ step: inout TLSSessionStep, result: Int32) {
        let error = SSL_get_error(ssl, result)
        stop(&step, error == SSL_ERROR_ZERO_RETURN ? .closeNotify : .error, reason: OpenSSLErrorQueue.drain(fallback: Self.describe(error)))
    }

    private func stop(_ step: inout TLSSessionStep, _ cause: OpenSSLStop.Cause, reason: String) {
        let verification = context.role == .client ? SSL_get_verify_result(ssl) : Int(X509_V_OK)
        let reading = OpenSSLStop(
            cause: cause,
            handshakeFinished: phase == .established,
            alertFromPeer: alertFromPeer,
            verificationError: verification == Int(X509_V_OK) ? nil : String(cString: X509_verify_cert_error_string(verification)),
            reason: reason)
        finish(&step, reading.end)
    }

    /// Our alert, when OpenSSL wrote one, goes out with the rest of the call's records.
    private func finish(_ step: inout TLSSessionStep, _ end: TLSSessionEnd) {
        step.ended = end
        phase = .ended
        OpenSSLErrorQueue.clear()
    }

    private func readNegotiated() {
        if let cipher = SSL_get_current_cipher(ssl) {
            negotiated = NegotiatedTLS(version: TLSProtocolVersion(rawValue: UInt16(truncatingIfNeeded: SSL_version(ssl))),
                                       cipherSuite: TLSCipherSuite(rawValue: SSL_CIPHER_get_protocol_id(cipher)),
                                       fromHelloRetryRequest: false, source: .upstreamConnection)
        }
        var name: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &name, &length)
        if let name, length > 0 {
            applicationProtocol = String(decoding: UnsafeBufferPointer(start: name, count: Int(length)), as: UTF8.self)
        }
    }

    private static func describe(_ error: Int32) -> String {
        switch error {
        case SSL_ERROR_SYSCALL: "the TLS stream broke off (SSL_ERROR_SYSCALL)"
        case SSL_ERROR_SSL: "a TLS protocol error (SSL_ERROR_SSL)"
        default: "OpenSSL stopped with SSL error \(error)"
        }
    }
}
