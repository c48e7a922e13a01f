import Foundation
import Shared
import Testing
@testable import PacketTunnel

/// TLS that starts after a plaintext exchange is read as if it opened the streams, and the opening
/// says which protocol switched.
@Suite struct TCPFlowScannersUpgradeTests {
    typealias U = UpgradeVectors
    typealias V = TLSVectors

    static let negotiated = NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1301),
                                          fromHelloRetryRequest: false, source: .serverHello)
    static let offer = ClientTLSOffer(versions: .listed([.tls13, .tls12]), applicationProtocols: ["h2", "http/1.1"])

    /// The exchange, then each side's handshake, fed in order with each turn cut in chunks of `size`.
    static func feed(_ scanners: inout TCPFlowScanners, _ turns: [U.Turn], size: Int) -> [FlowFact] {
        var facts: [FlowFact] = []
        for turn in turns {
            for chunk in V.chunks(turn.bytes, size: size) {
                facts += chunk.withUnsafeBytes { turn.side == .client ? scanners.client($0) : scanners.server($0) }
            }
        }
        return facts
    }

    static func handshake(after exchange: U.Exchange) -> [U.Turn] {
        exchange.turns + [U.Turn(side: .client, bytes: V.clientHelloRecord), U.Turn(side: .server, bytes: V.serverHello13Record)]
    }

    @Test("the name, the offer, the answer and the opening after the switch, however the streams are cut",
          arguments: U.all)
    func theHandshakeAfterTheSwitchIsRead(_ exchange: U.Exchange) {
        for size in [1, 2, 7, 64, 4096] {
            var scanners = TCPFlowScanners()
            let facts = Self.feed(&scanners, Self.handshake(after: exchange), size: size)
            #expect(facts.contains(.streamOpening(.unrecognised)), "chunks of \(size): \(facts)")
            #expect(facts.contains(.streamOpening(exchange.upgrade.opening)), "chunks of \(size): \(facts)")
            #expect(facts.contains(.serverName("example.com")), "chunks of \(size)")
            #expect(facts.contains(.clientOffer(Self.offer)), "chunks of \(size)")
            #expect(facts.contains(.serverAnswer(.negotiated(Self.negotiated))), "chunks of \(size)")
            // The hellos after the switch are fingerprinted as a TLS-first stream's are.
            #expect(facts.contains { if case .clientFingerprints = $0 { true } else { false } }, "chunks of \(size)")
            #expect(facts.contains { if case .serverFingerprints = $0 { true } else { false } }, "chunks of \(size)")
            #expect(facts.count == 7, "chunks of \(size): \(facts)")
            #expect(scanners.isSettled && !scanners.upgradeAbandoned)
        }
    }

    @Test("a TLS 1.2 flight after STARTTLS gives the answer and the chain")
    func tls12AfterSMTPStartTLS() {
        var scanners = TCPFlowScanners()
        let flight = V.records(V.serverHello12Message + V.serverHelloDone, size: 16_384)
        let facts = Self.feed(&scanners, U.smtp.turns + [U.Turn(side: .client, bytes: V.clientHelloRecord),
                                                         U.Turn(side: .server, bytes: flight)], size: 4096)
        #expect(facts.contains(.streamOpening(.smtpStartTLS)))
        #expect(facts.contains { if case .serverCertificates = $0 { true } else { false } })
        #expect(scanners.isSettled)
    }

    @Test("a refused STARTTLS stays plaintext: no switch, no opening beyond unrecognised, no TLS facts",
          arguments: [
            [U.s("220 mx ESMTP\r\n"), U.c("EHLO c\r\n"), U.s("250 mx\r\n"), U.c("STARTTLS\r\n"),
             U.s("454 4.7.0 TLS not available due to local problem\r\n"), U.c("MAIL FROM:<a@b>\r\n"), U.s("250 2.1.0 Ok\r\n")],
            [U.s("* OK ready\r\n"), U.c("a1 STARTTLS\r\n"), U.s("a1 NO [UNAVAILABLE] not now\r\n"), U.c("a2 LOGOUT\r\n"),
             U.s("* BYE\r\na2 OK done\r\n")],
            [U.s("+OK ready\r\n"), U.c("STLS\r\n"), U.s("-ERR not now\r\n"), U.c("QUIT\r\n"), U.s("+OK bye\r\n")],
            [U.s("220 ftp\r\n"), U.c("AUTH TLS\r\n"), U.s("530 Please login with USER and PASS.\r\n"), U.c("USER anonymous\r\n"),
             U.s("331 Please specify the password.\r\n")],
            [U.Turn(side: .client, bytes: U.postgresSSLRequest), U.s("N"),
             U.Turn(side: .client, bytes: [0, 0, 0, 9, 0, 3, 0, 0, 0]), U.s("R\0\0\0\u{8}\0\0\0\0")],
            [U.Turn(side: .client, bytes: U.ldapStartTLSRequest), U.Turn(side: .server, bytes: U.ldapUnavailable),
             U.Turn(side: .client, bytes: [0x30, 0x05, 0x02, 0x01, 0x02, 0x42, 0x00])],
            [U.xmpp.turns[0], U.xmpp.turns[1], U.xmpp.turns[2],
             U.s("<failure xmlns='urn:ietf:params:xml:ns:xmpp-tls'/></stream:stream>")],
          ])
    func aRefusalStaysPlaintext(_ turns: [U.Turn]) {
        for size in [1, 4096] {
            var scanners = TCPFlowScanners()
            let facts = Self.feed(&scanners, turns, size: size)
            #expect(facts == [.streamOpening(.unrecognised)], "chunks of \(size): \(facts)")
        }
    }

    @Test("a client that starts TLS after a refusal (as openssl s_client does) is not read: the server never switched")
    func aHandshakeAfterARefusalIsNotRead() {
        var scanners = TCPFlowScanners()
        let facts = Self.feed(&scanners, [
            U.s("220 mx ESMTP\r\n"), U.c("EHLO c\r\n"), U.s("250 STARTTLS\r\n"), U.c("STARTTLS\r\n"),
            U.s("454 4.7.0 TLS not available\r\n"), U.Turn(side: .client, bytes: V.clientHelloRecord),
            U.s("500 5.5.2 Error: bad syntax\r\n"),
        ], size: 4096)
        #expect(facts == [.streamOpening(.unrecognised)])
    }

    @Test("a server that answers the hello after its yes with an alert: the switch, and the refusal as a TLS stream's")
    func anAlertAfterTheYes() {
        var scanners = TCPFlowScanners()
        let facts = Self.feed(&scanners, U.pop3.turns + [U.Turn(side: .client, bytes: V.clientHelloRecord),
                                                         U.Turn(side: .server, bytes: V.handshakeFailureAlert)], size: 3)
        #expect(facts.contains(.streamOpening(.pop3STLS)))
        #expect(facts.contains(.serverAnswer(.refused(alert: 40))))
        #expect(scanners.isSettled && !scanners.upgradeAbandoned)
    }

    @Test("RFC 3207 §4.2: commands pipelined before STARTTLS in one segment, and replies in one, are read")
    func pipelinedCommandsBeforeTheSwitch() {
        var scanners = TCPFlowScanners()
        let facts = Self.feed(&scanners, [
            U.s("220 mx ESMTP\r\n"), U.c("EHLO c\r\nNOOP\r\nSTARTTLS\r\n"),
            U.s("250-mx\r\n250 STARTTLS\r\n250 2.0.0 Ok\r\n220 2.0.0 Ready to start TLS\r\n"),
            U.Turn(side: .client, bytes: V.clientHelloRecord), U.Turn(side: .server, bytes: V.serverHello13Record),
        ], size: 4096)
        #expect(facts.contains(.streamOpening(.smtpStartTLS)))
        #expect(facts.contains(.serverName("example.com")))
        #expect(facts.contains(.serverAnswer(.negotiated(Self.negotiated))))
    }

    @Test("PostgreSQL: a GSSENCRequest refused with 'N', then an SSLRequest and 'S'")
    func postgresGSSEncryptionRefusedThenTLS() {
        var scanners = TCPFlowScanners()
        let facts = Self.feed(&scanners, [
            U.Turn(side: .client, bytes: U.postgresGSSENCRequest), U.s("N"),
            U.Turn(side: .client, bytes: U.postgresSSLRequest), U.s("S"),
            U.Turn(side: .client, bytes: V.clientHelloRecord), U.Turn(side: .server, bytes: V.serverHello13Record),
        ], size: 3)
        #expect(facts.contains(.streamOpening(.postgresSSLRequest)))
        #expect(facts.contains(.serverAnswer(.negotiated(Self.negotiated))))
    }

    @Test("LDAP: a root DSE search before the StartTLS request is stepped over")
    func ldapSearchBeforeStartTLS() {
        var scanners = TCPFlowScanners()
        let facts = Self.feed(&scanners, [
            U.Turn(side: .client, bytes: U.ldapRootDSESearch), U.Turn(side: .server, bytes: U.ldapSearchDone),
            U.Turn(side: .client, bytes: U.ldapStartTLSRequest), U.Turn(side: .server, bytes: U.ldapSuccess),
            U.Turn(side: .client, bytes: V.clientHelloRecord), U.Turn(side: .server, bytes: V.serverHello13Record),
        ], size: 5)
        #expect(facts.contains(.streamOpening(.ldapStartTLS)))
        #expect(facts.contains(.serverName("example.com")))
    }

    @Test("a TLS-first and an HTTP stream start no follower: their facts are as before")
    func ordinaryStreamsAreUntouched() {
        var tls = TCPFlowScanners()
        let tlsFacts = Self.feed(&tls, [U.Turn(side: .client, bytes: V.clientHelloRecord),
                                        U.Turn(side: .server, bytes: V.serverHello13Record)], size: 4096)
        #expect(tlsFacts.first == .streamOpening(.tlsHandshake) && tlsFacts.count == 6 && tls.isSettled)
        var http = TCPFlowScanners()
        let httpFacts = Self.feed(&http, [U.c("GET / HTTP/1.1\r\nHost: a\r\n\r\n"), U.s("HTTP/1.1 200 OK\r\n\r\n")], size: 4096)
        #expect(httpFacts == [.streamOpening(.httpRequest)] && http.isSettled)
    }

    @Test("a server that greets like SMTP but whose client never asks stays unread once past the bounds, counted")
    func anEndlessExchangeIsGivenUp() {
        var scanners = TCPFlowScanners()
        var turns = [U.s("220 mx ESMTP\r\n"), U.c("EHLO c\r\n")]
        for index in 0..<2000 { turns += [U.c("NOOP \(index)\r\n"), U.s("250 2.0.0 Ok\r\n")] }
        let facts = Self.feed(&scanners, turns, size: 4096)
        #expect(facts == [.streamOpening(.unrecognised)])
        #expect(scanners.isSettled && scanners.upgradeAbandoned)
    }

    @Test("garbage in a line ends the following at once, counted", arguments: [
        [U.s("220 mx ESMTP\r\n"), U.c("EHLO c\r\n\u{1}\u{2}\u{3}")],
        [U.s("220 mx ESMTP\r\n"), U.c("EHLO c\r\n"), U.s("250 ok\r\n\u{0}\u{0}")],
    ])
    func garbageIsGivenUp(_ turns: [U.Turn]) {
        var scanners = TCPFlowScanners()
        _ = Self.feed(&scanners, turns, size: 4096)
        #expect(scanners.upgradeAbandoned)
    }

    @Test("a server that speaks first with no greeting of these protocols, and a binary client, are not followed")
    func notAGreeting() {
        var ssh = TCPFlowScanners()
        let facts = Self.feed(&ssh, [U.s("SSH-2.0-OpenSSH_9.2\r\n"), U.c("SSH-2.0-OpenSSH_9.2\r\n")], size: 4096)
        #expect(facts == [.streamOpening(.unrecognised)] && ssh.isSettled)
        var redis = TCPFlowScanners()
        _ = Self.feed(&redis, [U.s("+PONG\r\n")], size: 4096)
        #expect(redis.isServerSettled)            // "+…" might have been POP3's "+OK": it was not
        var notLDAP = TCPFlowScanners()
        let notLDAPFacts = Self.feed(&notLDAP, [U.c("0123456789\r\n"), U.s("0")], size: 4096)
        #expect(notLDAPFacts == [.streamOpening(.unrecognised)] && notLDAP.isSettled && !notLDAP.upgradeAbandoned)
    }
}

extension UpgradeVectors.Exchange: CustomTestStringConvertible {
    var testDescription: String { "\(upgrade)" }
}
