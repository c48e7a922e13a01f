import Foundation
import Shared
import Testing

/// The names shown for cipher suites, checked against OpenSSL's own table of IANA names
/// (`openssl ciphers -V -stdname`), never against a list of ours.
@Suite("TLS cipher suite names")
struct TLSCipherSuiteNamesTests {
    /// Every suite OpenSSL knows, at any security level, with TLS 1.3's five allowed: code → name.
    static func openSSLNames() throws -> [UInt16: String] {
        let tls13 = "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_CCM_SHA256:TLS_AES_128_CCM_8_SHA256"
        let listing = try OpenSSLCommand().run(["ciphers", "-V", "-stdname", "-ciphersuites", tls13, "ALL:COMPLEMENTOFALL:@SECLEVEL=0"])
        var names: [UInt16: String] = [:]
        for line in listing.split(separator: "\n") {
            // "0x13,0x02 - TLS_AES_256_GCM_SHA384 - TLS_AES_256_GCM_SHA384 TLSv1.3 Kx=any …"
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 3, fields[1] == "-" else { continue }
            let bytes = fields[0].split(separator: ",").compactMap { UInt8($0.dropFirst(2), radix: 16) }
            guard bytes.count == 2 else { continue }
            names[UInt16(bytes[0]) << 8 | UInt16(bytes[1])] = String(fields[2])
        }
        return names
    }

    @Test("every named suite has the name OpenSSL gives its code point")
    func namesMatchOpenSSL() throws {
        let openSSL = try Self.openSSLNames()
        #expect(openSSL.count > 50, "openssl listed only \(openSSL.count) suites")
        for code in [UInt16](0x0000...0xCCFF) {
            guard let ours = TLSCipherSuite(rawValue: code).ianaName else { continue }
            #expect(openSSL[code] == ours, "0x\(String(code, radix: 16)): ours \(ours), OpenSSL \(openSSL[code] ?? "unknown")")
        }
    }

    @Test("the suites today's clients negotiate are all named")
    func commonSuitesAreNamed() {
        // TLS 1.3's three that every client offers, and the ECDHE GCM and ChaCha suites of TLS 1.2.
        for code: UInt16 in [0x1301, 0x1302, 0x1303, 0xC02B, 0xC02C, 0xC02F, 0xC030, 0xCCA8, 0xCCA9] {
            #expect(TLSCipherSuite(rawValue: code).ianaName != nil, "0x\(String(code, radix: 16)) has no name")
        }
    }

    @Test("a code point this build does not know has no name")
    func unknownSuiteHasNoName() {
        #expect(TLSCipherSuite(rawValue: 0x0A0A).ianaName == nil)   // a GREASE value (RFC 8701)
    }
}
