import Foundation
import Shared
@testable import PacketTunnel

/// TLS bytes written out by hand from RFC 8446 / RFC 5246's layouts. The two golden hellos and the
/// alert are literal bytes with every length counted by hand, and were confirmed by tshark 4.0
/// (record and handshake lengths, server name, ALPN, versions, suites, alert description — no
/// expert warning); the builders below only wrap hand-written pieces in the length prefixes the
/// grammar asks for, so a test can vary one piece at a time.
enum TLSVectors {
    // MARK: golden vectors

    /// A TLS 1.3 ClientHello in one record: SNI "example.com", ALPN h2 + http/1.1,
    /// supported_versions GREASE 0x1A1A, TLS 1.3, TLS 1.2.
    static let clientHelloRecord: [UInt8] = [
        0x16, 0x03, 0x01, 0x00, 0x62,                       // handshake record, TLS 1.0 record version, 98 bytes
        0x01, 0x00, 0x00, 0x5E,                             // ClientHello, 94 bytes
        0x03, 0x03,                                         // legacy_version TLS 1.2
        0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F,
        0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x1B, 0x1C, 0x1D, 0x1E, 0x1F, // random
        0x00,                                               // legacy_session_id: empty
        0x00, 0x04, 0x13, 0x01, 0x13, 0x02,                 // cipher_suites: AES_128_GCM, AES_256_GCM
        0x01, 0x00,                                         // compression: null
        0x00, 0x31,                                         // extensions: 49 bytes
        0x00, 0x00, 0x00, 0x10,                             //   server_name, 16 bytes
        0x00, 0x0E, 0x00, 0x00, 0x0B,                       //     list 14, host_name, 11 bytes
        0x65, 0x78, 0x61, 0x6D, 0x70, 0x6C, 0x65, 0x2E, 0x63, 0x6F, 0x6D, //     "example.com"
        0x00, 0x10, 0x00, 0x0E,                             //   ALPN, 14 bytes
        0x00, 0x0C, 0x02, 0x68, 0x32,                       //     list 12, "h2"
        0x08, 0x68, 0x74, 0x74, 0x70, 0x2F, 0x31, 0x2E, 0x31, //     "http/1.1"
        0x00, 0x2B, 0x00, 0x07,                             //   supported_versions, 7 bytes
        0x06, 0x1A, 0x1A, 0x03, 0x04, 0x03, 0x03,           //     list 6: GREASE, TLS 1.3, TLS 1.2
    ]

    /// The ClientHello message of `clientHelloRecord`, without its record header: what a QUIC
    /// CRYPTO stream carries.
    static var clientHelloMessage: [UInt8] { Array(clientHelloRecord[5...]) }

    /// A TLS 1.3 ServerHello in one record: TLS_AES_128_GCM_SHA256, supported_versions TLS 1.3.
    static let serverHello13Record: [UInt8] = [
        0x16, 0x03, 0x03, 0x00, 0x5A,                       // handshake record, 90 bytes
        0x02, 0x00, 0x00, 0x56,                             // ServerHello, 86 bytes
        0x03, 0x03,                                         // legacy_version TLS 1.2
        0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xAB, 0xAC, 0xAD, 0xAE, 0xAF,
        0xB0, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xBB, 0xBC, 0xBD, 0xBE, 0xBF, // random
        0x00,                                               // legacy_session_id_echo: empty
        0x13, 0x01,                                         // cipher_suite TLS_AES_128_GCM_SHA256
        0x00,                                               // compression: null
        0x00, 0x2E,                                         // extensions: 46 bytes
        0x00, 0x2B, 0x00, 0x02, 0x03, 0x04,                 //   supported_versions: TLS 1.3
        0x00, 0x33, 0x00, 0x24, 0x00, 0x1D, 0x00, 0x20,     //   key_share, 36 bytes: x25519, a 32-byte key (not read)
        0x09, 0x09, 0x09, 0x09, 0x09, 0x09, 0x09, 0x09, 0x09, 0x09, 0x09, 0x09, 0x09, 0x09, 0x09, 0x09,
        0x09, 0x09, 0x09, 0x09, 0x09, 0x09, 0x09, 0x09, 0x09, 0x09, 0x09, 0x09, 0x09, 0x09, 0x09, 0x09,
    ]

    /// RFC 8446 §4.1.3: SHA-256("HelloRetryRequest").
    static let helloRetryRequestRandom: [UInt8] = [
        0xCF, 0x21, 0xAD, 0x74, 0xE5, 0x9A, 0x61, 0x11, 0xBE, 0x1D, 0x8C, 0x02, 0x1E, 0x65, 0xB8, 0x91,
        0xC2, 0xA2, 0x11, 0x16, 0x7A, 0xBB, 0x8C, 0x5E, 0x07, 0x9E, 0x09, 0xE2, 0xC8, 0xA8, 0x33, 0x9C,
    ]

    /// A fatal handshake_failure alert (RFC 8446 §6: level 2, description 40).
    static let handshakeFailureAlert: [UInt8] = [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28]

    /// A ChangeCipherSpec record (RFC 5246 §7.1).
    static let changeCipherSpec: [UInt8] = [0x14, 0x03, 0x03, 0x00, 0x01, 0x01]

    // MARK: builders

    static func bigEndian(_ value: Int, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    /// type · record version · length(2) · payload.
    static func record(_ payload: [UInt8], type: UInt8 = 0x16, version: UInt16 = 0x0303) -> [UInt8] {
        [type] + bigEndian(Int(version), bytes: 2) + bigEndian(payload.count, bytes: 2) + payload
    }

    /// msg_type · length(3) · body.
    static func handshake(_ type: UInt8, _ body: [UInt8]) -> [UInt8] {
        [type] + bigEndian(body.count, bytes: 3) + body
    }

    /// type(2) · extension_data<0..2^16-1>.
    static func ext(_ type: UInt16, _ data: [UInt8]) -> [UInt8] {
        bigEndian(Int(type), bytes: 2) + bigEndian(data.count, bytes: 2) + data
    }

    static func vector(_ content: [UInt8], lengthBytes: Int) -> [UInt8] {
        bigEndian(content.count, bytes: lengthBytes) + content
    }

    /// server_name with one host_name.
    static func serverName(_ name: String) -> [UInt8] {
        ext(0, vector([0x00] + vector(Array(name.utf8), lengthBytes: 2), lengthBytes: 2))
    }

    static func alpn(_ names: [[UInt8]]) -> [UInt8] {
        ext(16, vector(names.flatMap { vector($0, lengthBytes: 1) }, lengthBytes: 2))
    }

    static func alpn(_ names: String...) -> [UInt8] { alpn(names.map { Array($0.utf8) }) }

    static func supportedVersions(_ versions: [UInt16]) -> [UInt8] {
        ext(43, vector(versions.flatMap { bigEndian(Int($0), bytes: 2) }, lengthBytes: 1))
    }

    /// A ClientHello body: TLS 1.2 legacy_version unless told, a fixed random, an empty session
    /// id, one suite, null compression; the extensions block only when `extensions` is not nil.
    static func clientHelloBody(legacyVersion: UInt16 = 0x0303, suites: [UInt16] = [0x1301], extensions: [[UInt8]]?) -> [UInt8] {
        var body = bigEndian(Int(legacyVersion), bytes: 2) + [UInt8](repeating: 0x11, count: 32) + [0x00]
        body += codePoints(suites) + [0x01, 0x00]
        if let extensions { body += vector(extensions.flatMap { $0 }, lengthBytes: 2) }
        return body
    }

    static func clientHello(legacyVersion: UInt16 = 0x0303, suites: [UInt16] = [0x1301], extensions: [[UInt8]]?) -> [UInt8] {
        record(handshake(1, clientHelloBody(legacyVersion: legacyVersion, suites: suites, extensions: extensions)))
    }

    /// A vector of 16-bit code points with its 2-byte length: cipher_suites, named_group_list,
    /// supported_signature_algorithms.
    static func codePoints(_ values: [UInt16]) -> [UInt8] {
        vector(values.flatMap { bigEndian(Int($0), bytes: 2) }, lengthBytes: 2)
    }

    /// supported_groups (RFC 8446 §4.2.7).
    static func supportedGroups(_ groups: [UInt16]) -> [UInt8] { ext(10, codePoints(groups)) }

    /// signature_algorithms (RFC 8446 §4.2.3).
    static func signatureAlgorithms(_ schemes: [UInt16]) -> [UInt8] { ext(13, codePoints(schemes)) }

    /// A ServerHello body; the extensions block only when `extensions` is not nil.
    static func serverHelloBody(legacyVersion: UInt16 = 0x0303, random: [UInt8] = [UInt8](repeating: 0x22, count: 32),
                                cipherSuite: UInt16 = 0xC02F, extensions: [[UInt8]]? = nil) -> [UInt8] {
        var body = bigEndian(Int(legacyVersion), bytes: 2) + random + [0x00] + bigEndian(Int(cipherSuite), bytes: 2) + [0x00]
        if let extensions { body += vector(extensions.flatMap { $0 }, lengthBytes: 2) }
        return body
    }

    /// A TLS 1.2 ServerHello message (ECDHE_RSA_WITH_AES_128_GCM_SHA256, renegotiation_info).
    static let serverHello12Message = handshake(2, serverHelloBody(extensions: [ext(0xFF01, [0x00])]))

    /// Certificate (RFC 5246 §7.4.2): certificate_list<0..2^24-1> of ASN.1Cert<1..2^24-1>.
    static func certificateMessage(_ certificates: [[UInt8]]) -> [UInt8] {
        handshake(11, vector(certificates.flatMap { vector($0, lengthBytes: 3) }, lengthBytes: 3))
    }

    static let serverHelloDone = handshake(14, [])

    // MARK: feeding

    /// `bytes` cut into chunks of `size` (the last one shorter).
    static func chunks(_ bytes: [UInt8], size: Int) -> [Data] {
        stride(from: 0, to: bytes.count, by: size).map { Data(bytes[$0..<min($0 + size, bytes.count)]) }
    }

    /// `bytes` split in two at `index`.
    static func split(_ bytes: [UInt8], at index: Int) -> [Data] {
        [Data(bytes[..<index]), Data(bytes[index...])]
    }

    /// A handshake message cut into records of at most `size` payload bytes.
    static func records(_ message: [UInt8], size: Int) -> [UInt8] {
        stride(from: 0, to: message.count, by: size).flatMap {
            record(Array(message[$0..<min($0 + size, message.count)]))
        }
    }
}
