import COpenSSL
import Foundation

/// A P-256 private key held by OpenSSL (an `EVP_PKEY`), and the two things done with it: sign
/// (ECDSA with SHA-256, `EVP_DigestSign`) and hand out its public half as a SubjectPublicKeyInfo
/// (`i2d_PUBKEY`). Nothing cryptographic is computed here; OpenSSL does it all.
///
/// `@unchecked Sendable`: the key is never changed after it is made, and OpenSSL's EVP_PKEY is
/// safe to use for signing from several threads at once once it is built (OpenSSL 3 threading
/// rules: a const object may be shared).
package final class X509SigningKey: @unchecked Sendable {
    private let key: OpaquePointer

    private init(key: OpaquePointer) {
        self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    /// A fresh P-256 key from OpenSSL's generator.
    package static func generateP256() throws(X509Failure) -> X509SigningKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw .openSSL("EVP_PKEY_CTX_new_from_name", X509Failure.lastError()) }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1 else {
            throw .openSSL("EVP_PKEY_keygen_init", X509Failure.lastError())
        }
        var key: OpaquePointer?
        guard EVP_PKEY_generate(context, &key) == 1, let key else { throw .openSSL("EVP_PKEY_generate", X509Failure.lastError()) }
        return X509SigningKey(key: key)
    }

    /// The key of a PKCS#8 PrivateKeyInfo (DER); it must be a P-256 EC key.
    package static func fromPKCS8(_ der: [UInt8]) throws(X509Failure) -> X509SigningKey {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
        }
        guard let parsed else { throw .notAKey(X509Failure.lastError()) }
        let key = X509SigningKey(key: parsed)
        var name = [CChar](repeating: 0, count: 64)
        guard EVP_PKEY_is_a(parsed, "EC") == 1,
              EVP_PKEY_get_group_name(parsed, &name, name.count, nil) == 1,
              String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) == "prime256v1"
        else { throw .notAKey("not a P-256 EC key") }
        return key
    }

    /// The private key as PKCS#8 PrivateKeyInfo DER (RFC 5208), what `MintedCertificate` and the
    /// key file hold.
    package func pkcs8DER() throws(X509Failure) -> [UInt8] {
        guard let info = EVP_PKEY2PKCS8(key) else { throw .openSSL("EVP_PKEY2PKCS8", X509Failure.lastError()) }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        return try X509Failure.encoded("i2d_PKCS8_PRIV_KEY_INFO") { i2d_PKCS8_PRIV_KEY_INFO(info, $0) }
    }

    /// The public half as a SubjectPublicKeyInfo (RFC 5280 §4.1.2.7), DER.
    func subjectPublicKeyInfoDER() throws(X509Failure) -> [UInt8] {
        try X509Failure.encoded("i2d_PUBKEY") { i2d_PUBKEY(key, $0) }
    }

    /// An ECDSA signature over SHA-256 of `message` (the DER Ecdsa-Sig-Value of RFC 3279 §2.2.3).
    func signSHA256(_ message: [UInt8]) throws(X509Failure) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw .openSSL("EVP_MD_CTX_new", X509Failure.lastError()) }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
            throw .openSSL("EVP_DigestSignInit", X509Failure.lastError())
        }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw .openSSL("EVP_DigestSign", X509Failure.lastError())
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
            throw .openSSL("EVP_DigestSign", X509Failure.lastError())
        }
        return Array(signature.prefix(length))
    }
}

/// What OpenSSL refused while a key or certificate was made. The caller reports it; nothing was
/// written.
package enum X509Failure: Error, Sendable, Equatable, CustomStringConvertible {
    /// An OpenSSL call failed: its name, and OpenSSL's own reason.
    case openSSL(String, String)
    /// The bytes are not a P-256 private key.
    case notAKey(String)
    /// A value could not be encoded (an OID, a name, a time).
    case encoding(DERWriterFailure)

    package var description: String {
        switch self {
        case let .openSSL(call, reason): "OpenSSL's \(call) failed: \(reason)"
        case let .notAKey(reason): "not a P-256 private key (\(reason))"
        case let .encoding(failure): "cannot encode the certificate: \(failure)"
        }
    }

    /// OpenSSL's most recent error, as text ("unknown" when its queue is empty); the queue is
    /// emptied so a later failure does not report this one.
    static func lastError() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "unknown" }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The bytes of an OpenSSL `i2d_…` call: asked once for the length, then into a buffer.
    static func encoded(_ call: String, _ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) throws(X509Failure) -> [UInt8] {
        let length = encode(nil)
        guard length > 0 else { throw .openSSL(call, lastError()) }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return encode(&cursor)
        }
        guard written == length else { throw .openSSL(call, lastError()) }
        return bytes
    }
}
