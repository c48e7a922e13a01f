import COpenSSL
import Foundation

/// HKDF with SHA-256 (RFC 5869) and TLS 1.3's HKDF-Expand-Label (RFC 8446 §7.1), through
/// OpenSSL's "HKDF" KDF in its extract-only and expand-only modes: what QUIC's Initial key
/// schedule needs (RFC 9001 §5.1–5.2), nothing more.
enum HKDFSHA256 {
    /// SHA-256's output size: the length of every secret here.
    static let hashLength = 32

    /// HKDF-Extract(salt, IKM): the 32-byte pseudorandom key. nil only if OpenSSL fails.
    static func extract(salt: [UInt8], inputKeyMaterial: [UInt8]) -> [UInt8]? {
        salt.withUnsafeBytes { salt in
            inputKeyMaterial.withUnsafeBytes { ikm in
                derive(mode: EVP_KDF_HKDF_MODE_EXTRACT_ONLY, key: ikm, salt: salt, info: nil, length: hashLength)
            }
        }
    }

    /// HKDF-Expand-Label(secret, label, "", length), with the "tls13 " prefix and an empty
    /// context: info = uint16 length ‖ uint8 len("tls13 " + label) ‖ "tls13 " + label ‖ 0x00.
    /// nil if the label is over 249 bytes or OpenSSL fails.
    static func expandLabel(secret: [UInt8], label: String, length: Int) -> [UInt8]? {
        let fullLabel = Array("tls13 ".utf8) + Array(label.utf8)
        guard fullLabel.count <= 255, length > 0, length <= 0xFFFF else { return nil }
        var info: [UInt8] = [UInt8(length >> 8), UInt8(length & 0xFF), UInt8(fullLabel.count)]
        info += fullLabel
        info.append(0)
        return secret.withUnsafeBytes { secret in
            info.withUnsafeBytes { info in
                derive(mode: EVP_KDF_HKDF_MODE_EXPAND_ONLY, key: secret, salt: nil, info: info, length: length)
            }
        }
    }

    /// One EVP_KDF_derive with the given parameters. OSSL_PARAM keeps pointers to its names and
    /// values, so names come from static strings and values stay alive through the derive call.
    private static func derive(mode: Int32, key: UnsafeRawBufferPointer, salt: UnsafeRawBufferPointer?,
                               info: UnsafeRawBufferPointer?, length: Int) -> [UInt8]? {
        guard let kdf = EVP_KDF_fetch(nil, cString("HKDF"), nil) else { return nil }
        defer { EVP_KDF_free(kdf) }
        guard let context = EVP_KDF_CTX_new(kdf) else { return nil }
        defer { EVP_KDF_CTX_free(context) }
        // OpenSSL reads an empty octet string through its pointer too: never hand it nil.
        var empty: UInt8 = 0
        var modeValue = mode
        var output = [UInt8](repeating: 0, count: length)
        let status = withUnsafeMutablePointer(to: &empty) { empty in
            withUnsafeMutablePointer(to: &modeValue) { mode in
                func octets(_ name: StaticString, _ bytes: UnsafeRawBufferPointer) -> OSSL_PARAM {
                    let pointer = bytes.count > 0 ? UnsafeMutableRawPointer(mutating: bytes.baseAddress!) : UnsafeMutableRawPointer(empty)
                    return OSSL_PARAM_construct_octet_string(cString(name), pointer, bytes.count)
                }
                var parameters = [
                    OSSL_PARAM_construct_utf8_string(cString("digest"), UnsafeMutablePointer(mutating: cString("SHA256")), 0),
                    OSSL_PARAM_construct_int(cString("mode"), mode),
                    octets("key", key),
                ]
                if let salt { parameters.append(octets("salt", salt)) }
                if let info { parameters.append(octets("info", info)) }
                parameters.append(OSSL_PARAM_construct_end())
                return output.withUnsafeMutableBufferPointer { output in
                    parameters.withUnsafeBufferPointer { parameters in
                        EVP_KDF_derive(context, output.baseAddress, length, parameters.baseAddress)
                    }
                }
            }
        }
        return status == 1 ? output : nil
    }

    /// A C string that lives as long as the program: string literals are stored NUL-terminated.
    private static func cString(_ literal: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
