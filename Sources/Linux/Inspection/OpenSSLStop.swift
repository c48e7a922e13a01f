import PacketTunnel

/// Everything known when an OpenSSL call stopped without asking for more bytes, and the one
/// decision made from it: how the session ended. No OpenSSL in here, so each rule is tested as a
/// value.
struct OpenSSLStop: Equatable {
    enum Cause: Equatable {
        /// `SSL_ERROR_ZERO_RETURN`: the peer's close_notify.
        case closeNotify
        /// `SSL_ERROR_SSL`, `SSL_ERROR_SYSCALL`, …: the handshake or a record broke.
        case error
    }

    var cause: Cause
    var handshakeFinished: Bool
    /// The fatal alert the peer sent (its description code, RFC 8446 §6), from the info callback.
    var alertFromPeer: UInt8?
    /// Our own verification's refusal of the peer (`X509_verify_cert_error_string`): only a
    /// client verifies, and only a failed handshake carries it.
    var verificationError: String?
    /// OpenSSL's error queue, in words.
    var reason: String

    var end: TLSSessionEnd {
        switch cause {
        case .closeNotify:
            return .closedByPeer
        case .error:
            // We refused the peer first; any alert that followed is the one we sent.
            if !handshakeFinished, let verificationError { return .verificationFailed(verificationError) }
            if !handshakeFinished, let alertFromPeer { return .alertFromPeer(alertFromPeer) }
            if let alertFromPeer { return .failed("the peer sent fatal alert \(alertFromPeer) after the handshake: \(reason)") }
            return .failed(reason)
        }
    }
}
