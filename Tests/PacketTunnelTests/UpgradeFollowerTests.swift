import Fixtures
import Foundation
import Testing
@testable import PacketTunnel

/// Each side's follower on its own: the marker, then a handshake byte at once; limits; garbage.
@Suite struct UpgradeFollowerTests {
    typealias U = UpgradeVectors
    typealias Outcome = UpgradeFollower.Outcome

    static func follow(_ grammar: UpgradeGrammar, _ text: String, then next: [UInt8] = [0x16]) -> Outcome {
        var follower = UpgradeFollower(grammar)
        return (Array(text.utf8) + next).withUnsafeBytes { follower.scan($0) }
    }

    static let commands = UpgradeGrammar.textCommands(TextCommandGrammar())
    static let replies = UpgradeGrammar.textReplies(TextReplyGrammar())

    @Test("each line protocol's request to switch is known by its words, in any case", arguments: [
        ("STARTTLS\r\n", PlaintextUpgrade.smtp), ("starttls\r\n", .smtp), ("a001 STARTTLS\r\n", .imap),
        (". starttls\r\n", .imap), ("STLS\r\n", .pop3), ("AUTH TLS\r\n", .ftp), ("AUTH SSL\r\n", .ftp),
        ("auth tls-c\r\n", .ftp), ("STARTTLS\n", .smtp),
    ])
    func theClientsRequest(line: String, upgrade: PlaintextUpgrade) {
        let text = line
        #expect(Self.follow(Self.commands, text) == .found(.init(upgrade: upgrade, end: text.utf8.count)))
    }

    @Test("a request not followed at once by a handshake record is taken back")
    func aRequestWithoutAHandshakeIsTakenBack() {
        #expect(Self.follow(Self.commands, "STARTTLS\r\n", then: Array("QUIT\r\n".utf8)) == .needMoreBytes)
        #expect(Self.follow(Self.commands, "AUTH PLAIN\r\n", then: []) == .needMoreBytes)
        #expect(Self.follow(Self.commands, "a1 STARTTLS now\r\n", then: []) == .needMoreBytes)
        #expect(Self.follow(Self.commands, "* STARTTLS\r\n", then: []) == .needMoreBytes)   // "*" is no IMAP tag
        // A handshake byte where no request armed the switch is no text: the following ends.
        #expect(Self.follow(Self.commands, "AUTH PLAIN\r\n") == .unavailable(.malformed))
    }

    @Test("the server's yes, never its greeting", arguments: [
        ("220 mx ESMTP\r\n220 Ready\r\n", PlaintextUpgrade.smtp),
        ("220-a\r\n220-b\r\n220 c\r\n250 ok\r\n220 go\r\n", .smtp),
        ("220 ftp\r\n234 AUTH TLS ok\r\n", .ftp),
        ("+OK hi\r\n+OK go\r\n", .pop3),
        ("* OK hi\r\n* CAPABILITY STARTTLS\r\nx OK begin\r\n", .imap),
        ("* PREAUTH hi\r\nx ok begin\r\n", .imap),
    ])
    func theServersYes(text: String, upgrade: PlaintextUpgrade) {
        #expect(Self.follow(Self.replies, text) == .found(.init(upgrade: upgrade, end: text.utf8.count)))
    }

    @Test("a greeting alone, or a greeting of no such protocol", arguments: [
        ("220 mx ESMTP\r\n", Outcome.needMoreBytes), ("+OK hi\r\n", .needMoreBytes), ("* OK hi\r\n", .needMoreBytes),
        ("220-multi\r\n220 end\r\n", .needMoreBytes), ("221 bye\r\n", .unavailable(.notMine)),
        ("* BYE\r\n", .unavailable(.notMine)), ("+PONG\r\n", .unavailable(.notMine)),
        ("* OK hi\r\n* OK [ALERT] x\r\n", .needMoreBytes), ("* OK hi\r\na NO no\r\n", .needMoreBytes),
        ("220 ftp\r\n534 no\r\n", .needMoreBytes),
    ])
    func noYes(text: String, outcome: Outcome) {
        #expect(Self.follow(Self.replies, text, then: []) == outcome)
    }

    @Test("a line past its bound, or with a control byte, is malformed; a stream past the budget is too large")
    func limits() {
        let long = "220 " + String(repeating: "x", count: UpgradeLimits.maxLineBytes) + "\r\n"
        #expect(Self.follow(Self.replies, "220 mx\r\n" + long) == .unavailable(.malformed))
        #expect(Self.follow(Self.commands, "EHLO \u{7F}\r\n") == .unavailable(.malformed))
        var follower = UpgradeFollower(Self.commands)
        let noops = Array(String(repeating: "NOOP\r\n", count: UpgradeLimits.maxPlaintextBytes / 6 + 1).utf8)
        #expect(noops.withUnsafeBytes { follower.scan($0) } == .unavailable(.tooLarge))
        // Sticky: nothing after changes the answer.
        #expect([0x16].withUnsafeBytes { follower.scan($0) } == .unavailable(.tooLarge))
    }

    @Test("a request that ends exactly at the budget is still followed by its handshake")
    func theLastByteOfTheBudget() {
        let filler = String(repeating: "NOOP\r\n", count: (UpgradeLimits.maxPlaintextBytes - 10) / 6)
        let pad = String(repeating: "A", count: UpgradeLimits.maxPlaintextBytes - 10 - filler.utf8.count - 2) + "\r\n"
        let text = filler + pad + "STARTTLS\r\n"
        #expect(text.utf8.count == UpgradeLimits.maxPlaintextBytes)
        #expect(Self.follow(Self.commands, text) == .found(.init(upgrade: .smtp, end: text.utf8.count)))
    }

    @Test("XMPP: the switch element written open ends at its end tag; a prefix is compared away")
    func xmppForms() {
        let header = "<?xml version='1.0'?><stream:stream xmlns='jabber:client'>"
        let client = UpgradeGrammar.xmpp(XMPPTagGrammar(side: .client))
        let open = header + "<starttls xmlns=\"urn:ietf:params:xml:ns:xmpp-tls\"></starttls>"
        #expect(Self.follow(client, open) == .found(.init(upgrade: .xmpp, end: open.utf8.count)))
        let server = UpgradeGrammar.xmpp(XMPPTagGrammar(side: .server))
        let prefixed = header + "<tls:proceed xmlns:tls='urn:ietf:params:xml:ns:xmpp-tls'/>"
        #expect(Self.follow(server, prefixed) == .found(.init(upgrade: .xmpp, end: prefixed.utf8.count)))
        #expect(Self.follow(client, "<html><body>") == .unavailable(.notMine))
        #expect(Self.follow(server, header + "<failure xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>") == .unavailable(.refused))
        // A '>' inside a quoted attribute does not end the tag.
        let quoted = header + "<starttls a='>' xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>"
        #expect(Self.follow(client, quoted) == .found(.init(upgrade: .xmpp, end: quoted.utf8.count)))
    }

    @Test("LDAP: a long-form length, a notice of disconnection, garbage after a message")
    func ldapForms() {
        let client = UpgradeGrammar.ldap(LDAPMessageGrammar(side: .client))
        let server = UpgradeGrammar.ldap(LDAPMessageGrammar(side: .server))
        var longForm = U.ldapStartTLSRequest
        longForm.replaceSubrange(1..<2, with: [0x81, 0x1D])
        var follower = UpgradeFollower(client)
        #expect((longForm + [0x16]).withUnsafeBytes { follower.scan($0) } == .found(.init(upgrade: .ldap, end: longForm.count)))
        // Notice of Disconnection: messageID 0, an extended response with a non-zero result.
        var notice = UpgradeFollower(server)
        let disconnection: [UInt8] = [0x30, 0x0C, 0x02, 0x01, 0x00, 0x78, 0x07, 0x0A, 0x01, 0x34, 0x04, 0x00, 0x04, 0x00]
        #expect((disconnection + [0x16]).withUnsafeBytes { notice.scan($0) } == .unavailable(.malformed))
        var garbage = UpgradeFollower(server)
        #expect((U.ldapSearchDone + [0x99]).withUnsafeBytes { garbage.scan($0) } == .unavailable(.malformed))
    }

    @Test("PostgreSQL: a request of another kind is none; the server's 'N' then its startup answer is a refusal")
    func postgresForms() {
        var cancel = UpgradeFollower(.postgresRequest(PostgresRequestGrammar()))
        let cancelRequest: [UInt8] = [0, 0, 0, 16, 0x04, 0xD2, 0x16, 0x2E, 0, 0, 0, 1, 0, 0, 0, 2]
        #expect(cancelRequest.withUnsafeBytes { cancel.scan($0) } == .unavailable(.notMine))
        var twice = UpgradeFollower(.postgresRequest(PostgresRequestGrammar()))
        #expect((U.postgresGSSENCRequest + U.postgresGSSENCRequest).withUnsafeBytes { twice.scan($0) } == .unavailable(.refused))
        var answer = UpgradeFollower(.postgresAnswer(PostgresAnswerGrammar()))
        #expect(Array("NR".utf8).withUnsafeBytes { answer.scan($0) } == .unavailable(.refused))
        var notPostgres = UpgradeFollower(.postgresAnswer(PostgresAnswerGrammar()))
        #expect(Array("HTTP/1.1".utf8).withUnsafeBytes { notPostgres.scan($0) } == .unavailable(.notMine))
        var yesThenPlain = UpgradeFollower(.postgresAnswer(PostgresAnswerGrammar()))
        #expect(Array("SE".utf8).withUnsafeBytes { yesThenPlain.scan($0) } == .unavailable(.malformed))
    }

    @Test("XMPP and LDAP bounds: a tag past the line bound, a message claiming more than the budget")
    func xmppAndLDAPBounds() {
        let client = UpgradeGrammar.xmpp(XMPPTagGrammar(side: .client))
        let longTag = "<stream:stream a='" + String(repeating: "x", count: UpgradeLimits.maxLineBytes) + "'>"
        #expect(Self.follow(client, longTag, then: []) == .unavailable(.malformed))
        #expect(Self.follow(client, "<stream:stream><<", then: []) == .unavailable(.malformed))
        var huge = UpgradeFollower(.ldap(LDAPMessageGrammar(side: .client)))
        #expect([0x30, 0x83, 0xFF, 0xFF, 0xFF].withUnsafeBytes { huge.scan($0) } == .unavailable(.notMine))
        var later = UpgradeFollower(.ldap(LDAPMessageGrammar(side: .client)))
        #expect((U.ldapRootDSESearch + [0x30, 0x84, 0, 0, 0, 1]).withUnsafeBytes { later.scan($0) } == .unavailable(.malformed))
        var endless = UpgradeFollower(.ldap(LDAPMessageGrammar(side: .server)))
        let results = [[UInt8]](repeating: U.ldapSearchDone, count: UpgradeLimits.maxPlaintextBytes / U.ldapSearchDone.count + 1)
        #expect(results.flatMap { $0 }.withUnsafeBytes { endless.scan($0) } == .unavailable(.tooLarge))
    }

    @Test("every proper prefix of each side of each exchange needs more bytes", arguments: U.all)
    func everyPrefixNeedsMore(_ exchange: U.Exchange) {
        let client = exchange.turns.filter { $0.side == .client }.flatMap(\.bytes)
        let server = exchange.turns.filter { $0.side == .server }.flatMap(\.bytes)
        for (bytes, grammar) in [(client, Self.clientGrammar(exchange.upgrade)), (server, Self.serverGrammar(exchange.upgrade))] {
            for cut in 0..<bytes.count {
                var follower = UpgradeFollower(grammar)
                #expect(Array(bytes[..<cut]).withUnsafeBytes { follower.scan($0) } == .needMoreBytes, "\(exchange.upgrade) cut at \(cut)")
            }
            var whole = UpgradeFollower(grammar)
            #expect((bytes + [0x16]).withUnsafeBytes { whole.scan($0) } == .found(.init(upgrade: exchange.upgrade, end: bytes.count)))
        }
    }

    @Test("a seeded random and bit-flip run never traps and always settles within the budget")
    func randomBytesNeverTrap() {
        var random = SeededRandom(seed: 27)
        let grammars = U.all.flatMap { [Self.clientGrammar($0.upgrade), Self.serverGrammar($0.upgrade)] }
        for round in 0..<400 {
            let exchange = U.all[round % U.all.count]
            var bytes = exchange.turns.flatMap(\.bytes) + [0x16]
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let index = Int(random.next() % UInt64(bytes.count))
                bytes[index] ^= UInt8(1 << (random.next() % 8))
            }
            let noise = (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            for grammar in grammars {
                var follower = UpgradeFollower(grammar)
                _ = (bytes + noise).withUnsafeBytes { follower.scan($0) }
                var endless = UpgradeFollower(grammar)
                let tail = [UInt8](repeating: UInt8(truncatingIfNeeded: random.next()) | 0x20, count: UpgradeLimits.maxPlaintextBytes + 1)
                #expect((noise + tail).withUnsafeBytes { endless.scan($0) } != .needMoreBytes)
            }
        }
    }

    static func clientGrammar(_ upgrade: PlaintextUpgrade) -> UpgradeGrammar {
        switch upgrade {
        case .smtp, .imap, .pop3, .ftp: .textCommands(TextCommandGrammar())
        case .xmpp: .xmpp(XMPPTagGrammar(side: .client))
        case .ldap: .ldap(LDAPMessageGrammar(side: .client))
        case .postgres: .postgresRequest(PostgresRequestGrammar())
        }
    }

    static func serverGrammar(_ upgrade: PlaintextUpgrade) -> UpgradeGrammar {
        switch upgrade {
        case .smtp, .imap, .pop3, .ftp: .textReplies(TextReplyGrammar())
        case .xmpp: .xmpp(XMPPTagGrammar(side: .server))
        case .ldap: .ldap(LDAPMessageGrammar(side: .server))
        case .postgres: .postgresAnswer(PostgresAnswerGrammar())
        }
    }
}
