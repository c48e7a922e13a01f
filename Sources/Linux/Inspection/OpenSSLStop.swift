import PacketTunnel
import Shared

/// Everything known when an OpenSSL call stopped the handshake or a record without asking for
/// more bytes, and the one decision made from it: how the session ended. No OpenSSL in here, so
/// each rule is tested as a value. (A close_notify after the handshake is no stop: the session
/// goes on sending, `TLSSessionStep.peerClosed`.)
struct OpenSSLStop: Equatable {
    enum Cause: Equatable {
        /// `SSL_ERROR_ZERO_RETURN` during the handshake: the peer's close_notify before its end.
        case closeNotify
        /// `SSL_ERROR_WANT_X509_LOOKUP`: the server asked for our certificate, and our callback
        /// stopped the handshake there.
        case certificateRequested
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
            return .alertFromPeer(.closeNotify)
        case .certificateRequested:
            return .certificateRequested
        case .error:
            // We refused the peer first; any alert that followed is the one we sent.
            if !handshakeFinished, let verificationError { return .verificationFailed(verificationError) }
            if let alertFromPeer { return .alertFromPeer(TLSAlertDescription(alertFromPeer)) }
            return .failed(reason)
        }
    }
}
