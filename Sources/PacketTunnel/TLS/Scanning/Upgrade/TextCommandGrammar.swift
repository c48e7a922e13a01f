/// The client's side of SMTP, IMAP, POP3 and FTP: lines, one of which asks to switch to TLS.
///
///   SMTP (RFC 3207 §4):      "STARTTLS" CRLF
///   IMAP (RFC 3501 §6.2.1):  tag SP "STARTTLS" CRLF
///   POP3 (RFC 2595 §4):      "STLS" CRLF
///   FTP (RFC 4217 §4):       "AUTH" SP ("TLS" / "SSL" / "TLS-C" / "TLS-P") CRLF  (SSL and the -C/-P
///                            forms from the drafts before it, still sent by clients)
/// Every other line is stepped over. The server speaks first in all four, so the line protocol is
/// known from its greeting before the client's first line.
package struct TextCommandGrammar: Sendable {
    private var lines = LineFraming()

    package init() {}

    mutating func feed(_ byte: UInt8) -> UpgradeFollower.Step {
        switch lines.feed(byte) {
        case .more: return .more
        case .malformed: return .malformed
        case .line: return Self.upgrade(asked: lines.words).map { .marker($0) } ?? .more
        }
    }

    /// The protocol whose switch to TLS the line asks for, if it asks.
    static func upgrade(asked words: [Substring]) -> PlaintextUpgrade? {
        switch words.count {
        case 1 where words[0] == "STARTTLS": return .smtp
        case 1 where words[0] == "STLS": return .pop3
        case 2 where words[0] == "AUTH" && ["TLS", "SSL", "TLS-C", "TLS-P"].contains(words[1]): return .ftp
        case 2 where words[1] == "STARTTLS" && isIMAPTag(words[0]): return .imap
        default: return nil
        }
    }

    /// RFC 3501 §9: tag = 1*<any ASTRING-CHAR except "+"> — no CTL, SP, "(", ")", "{", "%",
    /// "*", DQUOTE or "\".
    static func isIMAPTag(_ word: Substring) -> Bool {
        !word.isEmpty && word.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !"(){%*\"\\+".utf8.contains($0) }
    }
}
