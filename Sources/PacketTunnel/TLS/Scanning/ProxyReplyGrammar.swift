import Shared

/// The proxy replies `ProxyReplyScanner` steps over, read in one pass over the bytes seen so far.
enum ProxyReplyGrammar {
    enum Reading: Equatable {
        case needMoreBytes
        /// The proxy made the tunnel; it begins at this stream offset.
        case granted(end: Int)
        case refused
        case notMine
    }

    private enum Answer { case granted, refused }

    static func read(_ bytes: UnsafeRawBufferPointer, kind: ProxyReplyScanner.Kind) -> Reading {
        var cursor = ProxyCursor(bytes)
        do throws(ProxyCursor.Stop) {
            let answer: Answer
            switch kind {
            case .socks5: answer = try socks5(&cursor)
            case .socks4: answer = try socks4(&cursor)
            case .httpConnect: answer = try httpConnect(&cursor)
            }
            return answer == .granted ? .granted(end: cursor.offset) : .refused
        } catch .needMoreBytes {
            return .needMoreBytes
        } catch {
            return .notMine
        }
    }

    // RFC 1928 §3 and §6, RFC 1929 §2.
    private static func socks5(_ cursor: inout ProxyCursor) throws(ProxyCursor.Stop) -> Answer {
        try cursor.expect(0x05)
        switch try cursor.byte() {
        case 0x00: break                                                    // NO AUTHENTICATION REQUIRED
        case 0x02:                                                          // USERNAME/PASSWORD
            try cursor.expect(0x01)
            guard try cursor.byte() == 0x00 else { return .refused }
        case 0xFF: return .refused                                          // NO ACCEPTABLE METHODS
        default: throw .notMine                                             // GSSAPI and others: not followed
        }
        try cursor.expect(0x05)
        let reply = try cursor.byte()
        try cursor.expect(0x00)                                             // RSV
        switch try cursor.byte() {
        case 0x01: _ = try cursor.bytes(4)
        case 0x04: _ = try cursor.bytes(16)
        case 0x03: _ = try cursor.bytes(Int(try cursor.byte()))
        default: throw .notMine
        }
        _ = try cursor.uint16()                                             // BND.PORT
        return reply == 0x00 ? .granted : .refused
    }

    // SOCKS 4: VN 0, CD 90 granted, 91–93 refused; DSTPORT and DSTIP are ignored.
    private static func socks4(_ cursor: inout ProxyCursor) throws(ProxyCursor.Stop) -> Answer {
        try cursor.expect(0x00)
        let code = try cursor.byte()
        _ = try cursor.bytes(6)
        switch code {
        case 90: return .granted
        case 91...93: return .refused
        default: throw .notMine
        }
    }

    // RFC 9112 §4 (status-line = HTTP-version SP status-code SP [ reason-phrase ]) and §2.1.
    private static func httpConnect(_ cursor: inout ProxyCursor) throws(ProxyCursor.Stop) -> Answer {
        for byte in "HTTP/1.".utf8 { try cursor.expect(byte) }
        guard [UInt8(ascii: "0"), UInt8(ascii: "1")].contains(try cursor.byte()) else { throw .notMine }
        try cursor.expect(UInt8(ascii: " "))
        var status = 0
        for _ in 0..<3 {
            let digit = try cursor.byte()
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { throw .notMine }
            status = status * 10 + Int(digit - UInt8(ascii: "0"))
        }
        guard [UInt8(ascii: " "), UInt8(ascii: "\r")].contains(try cursor.peek()) else { throw .notMine }
        try cursor.skipLine()                                               // [ SP reason-phrase ]
        try cursor.skipHeaderLines()
        return (200...299).contains(status) ? .granted : .refused
    }
}
