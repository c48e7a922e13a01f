import Shared

/// The proxy requests `ProxyRequestScanner` recognises, read from the start of the client's stream
/// in one pass over the bytes seen so far: need more, a target and where it ended, or not mine.
enum ProxyRequestGrammar {
    enum Reading: Equatable {
        case needMoreBytes
        case found(ProxyTarget, end: Int)
        case notMine
    }

    /// The reply a stream opening with `firstByte` would get, if it is a proxy request at all.
    static func kind(firstByte: UInt8) -> ProxyReplyScanner.Kind? {
        switch firstByte {
        case 0x05: .socks5
        case 0x04: .socks4
        case UInt8(ascii: "C"): .httpConnect
        default: nil
        }
    }

    static func read(_ bytes: UnsafeRawBufferPointer) -> Reading {
        var cursor = ProxyCursor(bytes)
        do throws(ProxyCursor.Stop) {
            let target: ProxyTarget
            switch bytes.first.flatMap(kind(firstByte:)) {
            case .socks5: target = try socks5(&cursor)
            case .socks4: target = try socks4(&cursor)
            case .httpConnect: target = try httpConnect(&cursor)
            case nil: return bytes.isEmpty ? .needMoreBytes : .notMine
            }
            return .found(target, end: cursor.offset)
        } catch .needMoreBytes {
            return .needMoreBytes
        } catch {
            return .notMine
        }
    }

    private static let connect: UInt8 = 0x01

    // RFC 1928 §3, RFC 1929 §2, RFC 1928 §4–5.
    private static func socks5(_ cursor: inout ProxyCursor) throws(ProxyCursor.Stop) -> ProxyTarget {
        try cursor.expect(0x05)
        let methodCount = Int(try cursor.byte())
        guard methodCount >= 1 else { throw .notMine }                      // NMETHODS is 1…255
        let offersPassword = try cursor.bytes(methodCount).contains(0x02)
        // Credentials come first when the client offered them and speaks their version, 01; the
        // request's version is 05.
        if offersPassword, try cursor.peek() == 0x01 {
            cursor.skipPeeked()
            _ = try cursor.bytes(Int(try cursor.byte()))                    // UNAME
            _ = try cursor.bytes(Int(try cursor.byte()))                    // PASSWD
        }
        try cursor.expect(0x05)
        try cursor.expect(connect)
        try cursor.expect(0x00)                                             // RSV
        let host: String
        switch try cursor.byte() {
        case 0x01: host = IPAddress(bytes: try cursor.bytes(4))!.description
        case 0x04: host = IPAddress(bytes: try cursor.bytes(16))!.description
        case 0x03:
            let length = Int(try cursor.byte())
            guard length >= 1 else { throw .notMine }
            host = String(decoding: try cursor.bytes(length), as: UTF8.self)
        default: throw .notMine
        }
        return ProxyTarget(proxyProtocol: .socks5, host: host, port: try cursor.uint16())
    }

    // SOCKS 4 (Lee, "SOCKS: A protocol for TCP proxy across firewalls") and its 4A extension.
    private static func socks4(_ cursor: inout ProxyCursor) throws(ProxyCursor.Stop) -> ProxyTarget {
        try cursor.expect(0x04)
        try cursor.expect(connect)
        let port = try cursor.uint16()
        let address = Array(try cursor.bytes(4))
        _ = try cursor.nulTerminated()                                      // USERID
        guard address[0...2] == [0, 0, 0], address[3] != 0 else {
            return ProxyTarget(proxyProtocol: .socks4, host: IPAddress(bytes: address)!.description, port: port)
        }
        let name = try cursor.nulTerminated()
        guard !name.isEmpty else { throw .notMine }
        return ProxyTarget(proxyProtocol: .socks4a, host: String(decoding: name, as: UTF8.self), port: port)
    }

    // RFC 9110 §9.3.6, RFC 9112 §3 and §2.1 (header lines, then an empty line).
    private static func httpConnect(_ cursor: inout ProxyCursor) throws(ProxyCursor.Stop) -> ProxyTarget {
        for byte in "CONNECT ".utf8 { try cursor.expect(byte) }
        let authorityStart = cursor.offset
        while try cursor.peek() != UInt8(ascii: " ") {
            guard (0x21...0x7E).contains(try cursor.byte()) else { throw .notMine }
        }
        let authority = cursor.slice(from: authorityStart)
        cursor.skipPeeked()
        for byte in "HTTP/1.".utf8 { try cursor.expect(byte) }
        guard [UInt8(ascii: "0"), UInt8(ascii: "1")].contains(try cursor.byte()) else { throw .notMine }
        try cursor.expectLineEnd()
        try cursor.skipHeaderLines()
        guard let target = splitAuthority(authority) else { throw .notMine }
        return target
    }

    /// `uri-host ":" port` (RFC 3986 §3.2.2–3.2.3): a bracketed IP literal, or a host with no
    /// colon; the port 1…5 digits, at most 65535.
    static func splitAuthority(_ authority: UnsafeRawBufferPointer) -> ProxyTarget? {
        guard let colon = authority.lastIndex(of: UInt8(ascii: ":")) else { return nil }
        var host = UnsafeRawBufferPointer(rebasing: authority[..<colon])
        let portDigits = authority[(colon + 1)...]
        guard (1...5).contains(portDigits.count),
              portDigits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let port = UInt16(String(decoding: portDigits, as: UTF8.self)) else { return nil }
        if host.first == UInt8(ascii: "[") {
            guard host.count > 2, host.last == UInt8(ascii: "]") else { return nil }
            host = UnsafeRawBufferPointer(rebasing: host[1..<(host.count - 1)])
            guard !host.contains(UInt8(ascii: "[")), !host.contains(UInt8(ascii: "]")) else { return nil }
        } else {
            guard !host.isEmpty, !host.contains(UInt8(ascii: ":")), !host.contains(UInt8(ascii: "[")),
                  !host.contains(UInt8(ascii: "]")) else { return nil }
        }
        return ProxyTarget(proxyProtocol: .httpConnect, host: String(decoding: host, as: UTF8.self), port: port)
    }
}
