import Foundation
import Shared

/// TLS records for fixtures and benchmarks, laid out by RFC 8446 §4 / RFC 5246 §7.4: a ClientHello
/// with server_name, ALPN and supported_versions; a TLS 1.2 server flight (ServerHello,
/// Certificate, ServerHelloDone); opaque application data. Not an oracle for the scanners — their
/// tests use hand-written bytes and captures of real clients read by tshark.
package enum TLSHandshakeFixture {
    package static func clientHelloRecord(serverName: String, applicationProtocols: [String]) -> Data {
        let name = Array(serverName.utf8)
        let serverNameList = [0x00] + length16(name.count) + name
        var extensions = ext(0x0000, length16(serverNameList.count) + serverNameList)
        let alpn = applicationProtocols.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
        extensions += ext(0x0010, length16(alpn.count) + alpn)
        extensions += ext(0x002B, [0x04, 0x03, 0x04, 0x03, 0x03])                 // TLS 1.3, TLS 1.2
        var body: [UInt8] = [0x03, 0x03] + [UInt8](repeating: 0x5A, count: 32)   // legacy_version, random
        body += [0x00]                                                            // session id
        body += [0x00, 0x04, 0x13, 0x01, 0xC0, 0x2B]                              // cipher suites
        body += [0x01, 0x00]                                                      // compression: null
        body += length16(extensions.count) + extensions
        return record(0x16, handshake(0x01, body))
    }

    package static func serverFlight12(cipherSuite: UInt16, certificates: [Data]) -> Data {
        var hello: [UInt8] = [0x03, 0x03] + [UInt8](repeating: 0x3C, count: 32) + [0x00]
        hello += [UInt8(cipherSuite >> 8), UInt8(cipherSuite & 0xFF), 0x00]
        hello += length16(5) + ext(0xFF01, [0x00])                              // renegotiation_info
        let list = certificates.flatMap { length24($0.count) + Array($0) }
        let certificate = length24(list.count) + list
        return record(0x16, handshake(0x02, hello) + handshake(0x0B, certificate) + handshake(0x0E, []))
    }

    package static func applicationData(byteCount: Int) -> Data {
        record(0x17, [UInt8](repeating: 0xA5, count: byteCount))
    }

    private static func record(_ type: UInt8, _ payload: [UInt8]) -> Data {
        Data([type, 0x03, 0x03] + length16(payload.count) + payload)
    }

    private static func handshake(_ type: UInt8, _ body: [UInt8]) -> [UInt8] { [type] + length24(body.count) + body }
    private static func ext(_ type: UInt16, _ data: [UInt8]) -> [UInt8] { length16(Int(type)) + length16(data.count) + data }
    private static func length16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    private static func length24(_ value: Int) -> [UInt8] { [UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
}
