import COpenSSL
import Foundation

/// The C callbacks OpenSSL calls during a session's own call into it (same thread, same stack):
/// they find their Swift object through ex_data slot 0 (`SSL_get_app_data`'s slot), unretained,
/// because the object owns the `SSL` or `SSL_CTX` that points back at it.
enum OpenSSLCallbacks {
    static func session(of ssl: OpaquePointer?) -> OpenSSLSession? {
        guard let ssl, let pointer = SSL_get_ex_data(ssl, 0) else { return nil }
        return Unmanaged<OpenSSLSession>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// `SSL_CB_READ_ALERT`: `ret` is the alert's level (high byte) and description (low byte).
    static let info: @convention(c) (OpaquePointer?, Int32, Int32) -> Void = { ssl, location, value in
        guard location & SSL_CB_READ_ALERT == SSL_CB_READ_ALERT, value >> 8 == SSL3_AL_FATAL else { return }
        session(of: ssl)?.peerSentFatalAlert(UInt8(truncatingIfNeeded: value & 0xff))
    }

    /// The server's ALPN answer: the session's given protocol when the client offered it,
    /// otherwise no ALPN at all (`SSL_TLSEXT_ERR_NOACK`, the handshake goes on without it).
    static let selectApplicationProtocol: @convention(c) (
        OpaquePointer?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, UnsafeMutablePointer<UInt8>?,
        UnsafePointer<UInt8>?, UInt32, UnsafeMutableRawPointer?
    ) -> Int32 = { ssl, selected, selectedLength, offer, offerLength, _ in
        guard let answer = session(of: ssl)?.applicationProtocolAnswer, let offer, let selected, let selectedLength,
              let names = ALPNWireList.locate(answer, in: UnsafeBufferPointer(start: offer, count: Int(offerLength)))
        else { return SSL_TLSEXT_ERR_NOACK }
        selected.pointee = offer + names.lowerBound
        selectedLength.pointee = UInt8(names.count)
        return SSL_TLSEXT_ERR_OK
    }

    /// The server asked for a client certificate: -1 suspends the handshake
    /// (`SSL_ERROR_WANT_X509_LOOKUP`), which the session reads as `certificateRequested`.
    static let certificateRequested: @convention(c) (
        OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?, UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32 = { _, _, _ in -1 }

    static let keyLogLine: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Void = { ssl, line in
        guard let ssl, let line, let context = SSL_get_SSL_CTX(ssl), let pointer = SSL_CTX_get_ex_data(context, 0) else { return }
        Unmanaged<TLSKeyLog>.fromOpaque(pointer).takeUnretainedValue().append(line: String(cString: line))
    }
}
