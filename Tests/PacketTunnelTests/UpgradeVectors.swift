import Foundation
import PacketTunnel

/// Plaintext exchanges up to a switch to TLS, as the clients and servers the lab records write
/// them (`openssl s_client -starttls`, Postfix, Dovecot, vsftpd, Prosody, slapd, PostgreSQL). Shared
/// with the fuzz seeds (Fuzz/Sources/FuzzCorpus links this file).
enum UpgradeVectors {
    enum Side: Sendable { case client, server }

    /// One side's bytes, in the order the conversation has them.
    struct Turn: Sendable {
        var side: Side
        var bytes: [UInt8]
    }

    struct Exchange: Sendable {
        var upgrade: PlaintextUpgrade
        var turns: [Turn]
    }

    static func c(_ text: String) -> Turn { Turn(side: .client, bytes: Array(text.utf8)) }
    static func s(_ text: String) -> Turn { Turn(side: .server, bytes: Array(text.utf8)) }

    static let smtp = Exchange(upgrade: .smtp, turns: [
        s("220 mail.example.com ESMTP Postfix (Debian/GNU)\r\n"),
        c("EHLO openssl.client.net\r\n"),
        s("250-mail.example.com\r\n250-PIPELINING\r\n250-SIZE 10240000\r\n250-STARTTLS\r\n250 8BITMIME\r\n"),
        c("STARTTLS\r\n"),
        s("220 2.0.0 Ready to start TLS\r\n"),
    ])

    static let imap = Exchange(upgrade: .imap, turns: [
        s("* OK [CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ STARTTLS LOGINDISABLED] Dovecot ready.\r\n"),
        c(". CAPABILITY\r\n"),
        s("* CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ STARTTLS LOGINDISABLED\r\n. OK Pre-login capabilities listed, post-login capabilities have more.\r\n"),
        c(". STARTTLS\r\n"),
        s(". OK Begin TLS negotiation now.\r\n"),
    ])

    static let pop3 = Exchange(upgrade: .pop3, turns: [
        s("+OK Dovecot ready.\r\n"),
        c("CAPA\r\n"),
        s("+OK\r\nCAPA\r\nTOP\r\nUIDL\r\nRESP-CODES\r\nPIPELINING\r\nSTLS\r\nSASL\r\n.\r\n"),
        c("STLS\r\n"),
        s("+OK Begin TLS negotiation now.\r\n"),
    ])

    static let ftp = Exchange(upgrade: .ftp, turns: [
        s("220-Welcome to the lab FTP service.\r\n220 (vsFTPd 3.0.3)\r\n"),
        c("AUTH TLS\r\n"),
        s("234 Proceed with negotiation.\r\n"),
    ])

    static let xmpp = Exchange(upgrade: .xmpp, turns: [
        c("<stream:stream xmlns:stream='http://etherx.jabber.org/streams' xmlns='jabber:client' to='example.com' version='1.0'>"),
        s("<?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' id='a1' from='example.com' version='1.0' xml:lang='en'>"
          + "<stream:features><starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'><required/></starttls></stream:features>"),
        c("<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>"),
        s("<proceed xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>"),
    ])

    static let ldapStartTLSRequest: [UInt8] = [0x30, 0x1D, 0x02, 0x01, 0x01, 0x77, 0x18, 0x80, 0x16] + Array("1.3.6.1.4.1.1466.20037".utf8)
    static let ldapSuccess: [UInt8] = [0x30, 0x0C, 0x02, 0x01, 0x01, 0x78, 0x07, 0x0A, 0x01, 0x00, 0x04, 0x00, 0x04, 0x00]
    static let ldapUnavailable: [UInt8] = [0x30, 0x0C, 0x02, 0x01, 0x01, 0x78, 0x07, 0x0A, 0x01, 0x34, 0x04, 0x00, 0x04, 0x00]
    /// A search of the root DSE for supportedExtension (message 1) and its done (message 1).
    static let ldapRootDSESearch: [UInt8] = [0x30, 0x25, 0x02, 0x01, 0x01, 0x63, 0x20, 0x04, 0x00, 0x0A, 0x01, 0x00,
                                             0x0A, 0x01, 0x00, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00, 0x01, 0x01, 0x00,
                                             0x87, 0x0B] + Array("objectClass".utf8) + [0x30, 0x00]
    static let ldapSearchDone: [UInt8] = [0x30, 0x0C, 0x02, 0x01, 0x01, 0x65, 0x07, 0x0A, 0x01, 0x00, 0x04, 0x00, 0x04, 0x00]

    static let ldap = Exchange(upgrade: .ldap, turns: [
        Turn(side: .client, bytes: ldapStartTLSRequest),
        Turn(side: .server, bytes: ldapSuccess),
    ])

    static let postgresSSLRequest: [UInt8] = [0, 0, 0, 8, 0x04, 0xD2, 0x16, 0x2F]
    static let postgresGSSENCRequest: [UInt8] = [0, 0, 0, 8, 0x04, 0xD2, 0x16, 0x30]

    static let postgres = Exchange(upgrade: .postgres, turns: [
        Turn(side: .client, bytes: postgresSSLRequest),
        s("S"),
    ])

    static let all = [smtp, imap, pop3, ftp, xmpp, ldap, postgres]
}
