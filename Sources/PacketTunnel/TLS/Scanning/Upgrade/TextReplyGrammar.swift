/// The server's side of SMTP, IMAP, POP3 and FTP: a greeting that says which protocol speaks,
/// then replies, one of which says yes to the switch to TLS.
///
///   greeting   SMTP/FTP: "220" ("-" text CRLF … "220") [SP text] CRLF   (RFC 5321 §4.2, RFC 959 §4.2)
///              POP3: "+OK" [SP text] CRLF (RFC 1939 §4); IMAP: "*" SP ("OK" / "PREAUTH") … CRLF (RFC 3501 §7.1)
///   yes        SMTP: 220 (RFC 3207 §4); FTP: 234, or 334 from AUTH SSL's draft (RFC 4217 §4);
///              POP3: "+OK" (RFC 2595 §4); IMAP: tag SP "OK" (RFC 3501 §6.2.1)
/// Which reply answers STARTTLS is not known on this side alone: a yes arms the switch, and only a
/// handshake record right after it (`UpgradeFollower`) makes it one. The greeting is never the yes
/// (SMTP's and POP3's look alike). SMTP and FTP share a greeting; the yes tells them apart.
package struct TextReplyGrammar: Sendable {
    enum Family: Sendable { case smtpOrFTP, pop3, imap }

    private var lines = LineFraming()
    private var family: Family?
    /// The greeting has been read to its last line.
    private(set) var greeted = false

    package init() {}

    mutating func feed(_ byte: UInt8) -> UpgradeFollower.Step {
        switch lines.feed(byte) {
        case .more: return .more
        case .malformed: return family == nil ? .notMine : .malformed
        case .line: break
        }
        let words = lines.words
        guard let family else { return greet(words) }
        if !greeted {
            // A multi-line greeting's last line is its code and a space (RFC 5321 §4.2.1).
            if let (code, last) = Self.code(of: lines.kept), code == 220, last { greeted = true }
            return .more
        }
        return Self.yes(words, kept: lines.kept, family: family).map { .marker($0) } ?? .more
    }

    private mutating func greet(_ words: [Substring]) -> UpgradeFollower.Step {
        if let (code, last) = Self.code(of: lines.kept), code == 220 {
            family = .smtpOrFTP
            greeted = last
        } else if words.first == "+OK" {
            family = .pop3
            greeted = true
        } else if words.count >= 2, words[0] == "*", words[1] == "OK" || words[1] == "PREAUTH" {
            family = .imap
            greeted = true
        } else {
            return .notMine
        }
        return .more
    }

    /// The reply code of an SMTP or FTP reply line, and whether it is the reply's last line.
    static func code(of line: [UInt8]) -> (Int, Bool)? {
        guard line.count >= 3, line.prefix(3).allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let code = line.prefix(3).reduce(0) { $0 * 10 + Int($1 - 0x30) }
        if line.count == 3 { return (code, true) }
        switch line[3] {
        case UInt8(ascii: " "): return (code, true)
        case UInt8(ascii: "-"): return (code, false)
        default: return nil
        }
    }

    private static func yes(_ words: [Substring], kept: [UInt8], family: Family) -> PlaintextUpgrade? {
        switch family {
        case .smtpOrFTP:
            switch code(of: kept) {
            case (220, true)?: return .smtp
            case (234, true)?, (334, true)?: return .ftp
            default: return nil
            }
        case .pop3:
            return words.first == "+OK" ? .pop3 : nil
        case .imap:
            guard words.count >= 2, words[0] != "*", words[0] != "+", words[1] == "OK" else { return nil }
            return .imap
        }
    }
}
