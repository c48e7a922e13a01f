/// The grammar one side of a plaintext exchange is read by, fed one byte at a time: the client's
/// commands or the server's replies of the line protocols (SMTP, IMAP, POP3, FTP), XMPP's tags,
/// LDAP's messages, PostgreSQL's SSLRequest and its one-byte answer.
package enum UpgradeGrammar: Sendable {
    case textCommands(TextCommandGrammar)
    case textReplies(TextReplyGrammar)
    case xmpp(XMPPTagGrammar)
    case ldap(LDAPMessageGrammar)
    case postgresRequest(PostgresRequestGrammar)
    case postgresAnswer(PostgresAnswerGrammar)
    /// Nothing more is read.
    case settled

    /// The client grammar for a stream the client opens, by its first byte: PostgreSQL's
    /// SSLRequest begins with its length's high byte 0, an LDAP message with a SEQUENCE (0x30),
    /// an XMPP stream with '<'. Nil for any other byte (a TLS record, an HTTP request).
    static func clientSpeaksFirst(firstByte: UInt8) -> UpgradeGrammar? {
        switch firstByte {
        case 0x00: .postgresRequest(PostgresRequestGrammar())
        case 0x30: .ldap(LDAPMessageGrammar(side: .client))
        case UInt8(ascii: "<"): .xmpp(XMPPTagGrammar(side: .client))
        default: nil
        }
    }

    /// The server grammar answering a client grammar from `clientSpeaksFirst`.
    package var answering: UpgradeGrammar? {
        switch self {
        case .postgresRequest: .postgresAnswer(PostgresAnswerGrammar())
        case .ldap: .ldap(LDAPMessageGrammar(side: .server))
        case .xmpp: .xmpp(XMPPTagGrammar(side: .server))
        case .textCommands, .textReplies, .postgresAnswer, .settled: nil
        }
    }

    /// The grammar for a server that speaks first, by its first byte: an SMTP or FTP greeting's
    /// code (220), POP3's `+OK`, IMAP's untagged `*`. Nil for any other byte.
    static func serverSpeaksFirst(firstByte: UInt8) -> UpgradeGrammar? {
        switch firstByte {
        case UInt8(ascii: "2"), UInt8(ascii: "+"), UInt8(ascii: "*"): .textReplies(TextReplyGrammar())
        default: nil
        }
    }

    /// A server's greeting was read whole, in a line protocol: its client's commands are followed.
    var greeted: Bool {
        if case .textReplies(let replies) = self { replies.greeted } else { false }
    }

    mutating func feed(_ byte: UInt8) -> UpgradeFollower.Step {
        // Each grammar is taken out, fed and put back: the payloads are small.
        switch self {
        case .textCommands(var grammar):
            defer { self = .textCommands(grammar) }
            return grammar.feed(byte)
        case .textReplies(var grammar):
            defer { self = .textReplies(grammar) }
            return grammar.feed(byte)
        case .xmpp(var grammar):
            defer { self = .xmpp(grammar) }
            return grammar.feed(byte)
        case .ldap(var grammar):
            defer { self = .ldap(grammar) }
            return grammar.feed(byte)
        case .postgresRequest(var grammar):
            defer { self = .postgresRequest(grammar) }
            return grammar.feed(byte)
        case .postgresAnswer(var grammar):
            defer { self = .postgresAnswer(grammar) }
            return grammar.feed(byte)
        case .settled:
            return .notMine
        }
    }
}
