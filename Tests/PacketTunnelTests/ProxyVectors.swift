import Foundation

/// Proxy handshakes built by hand from their specifications, each named by its section.
enum ProxyVectors {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    // MARK: SOCKS5, RFC 1928

    /// §3: version 5, one method, NO AUTHENTICATION REQUIRED (00).
    static let socks5Greeting: [UInt8] = [0x05, 0x01, 0x00]
    /// §3 with USERNAME/PASSWORD (02) offered beside it.
    static let socks5GreetingWithPassword: [UInt8] = [0x05, 0x02, 0x00, 0x02]
    /// RFC 1929 §2: version 1, "user", "pass".
    static let socks5Credentials: [UInt8] = [0x01, 0x04] + bytes("user") + [0x04] + bytes("pass")

    /// §4–5: CONNECT (01), RSV 00, ATYP 03 (a length-prefixed name), the port big-endian.
    static func socks5Connect(name: String, port: UInt16 = 443) -> [UInt8] {
        [0x05, 0x01, 0x00, 0x03, UInt8(name.utf8.count)] + bytes(name) + port16(port)
    }

    /// §4–5 with ATYP 01 (IPv4) or 04 (IPv6).
    static func socks5Connect(address: [UInt8], port: UInt16 = 443) -> [UInt8] {
        [0x05, 0x01, 0x00, address.count == 4 ? 0x01 : 0x04] + address + port16(port)
    }

    /// §3: the server selects NO AUTHENTICATION REQUIRED.
    static let socks5MethodSelection: [UInt8] = [0x05, 0x00]
    /// §6: succeeded (REP 00), bound to 198.18.0.2:1080.
    static let socks5Success: [UInt8] = [0x05, 0x00, 0x00, 0x01, 198, 18, 0, 2, 0x04, 0x38]

    // MARK: SOCKS4 and 4a

    /// SOCKS 4: VN 4, CD 1 (CONNECT), DSTPORT, DSTIP, USERID "u", NUL.
    static func socks4Connect(address: [UInt8], port: UInt16 = 443) -> [UInt8] {
        [0x04, 0x01] + port16(port) + address + bytes("u") + [0x00]
    }

    /// SOCKS 4A: DSTIP 0.0.0.1, an empty USERID, then the host name and NUL.
    static func socks4aConnect(name: String, port: UInt16 = 443) -> [UInt8] {
        [0x04, 0x01] + port16(port) + [0, 0, 0, 1] + [0x00] + bytes(name) + [0x00]
    }

    /// SOCKS 4: VN 0, CD 90 (granted), DSTPORT and DSTIP ignored.
    static let socks4Granted: [UInt8] = [0x00, 90, 0, 0, 0, 0, 0, 0]

    // MARK: HTTP CONNECT, RFC 9110 §9.3.6

    static func httpConnect(_ authority: String) -> [UInt8] {
        bytes("CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\nUser-Agent: curl/7.88.1\r\n\r\n")
    }

    static let httpEstablished = bytes("HTTP/1.1 200 Connection established\r\n\r\n")

    static func port16(_ port: UInt16) -> [UInt8] { [UInt8(port >> 8), UInt8(port & 0xFF)] }
}
