import Foundation
import TestSupport
import Testing

/// Zeek's STARTTLS traces (`Tests/Captures/README.md`): each a real client and server that began in
/// plaintext and switched to TLS, read by `analyze` and checked against Zeek's own baseline for the
/// trace (`ssl.log`: version, cipher suite, server name; `x509.log`: the chain's subjects).
@Suite struct ZeekStartTLSTests {
    struct Expected: Sendable {
        let file: String
        let opening: String
        let server: String
        let version: Int
        let cipherSuite: String
        let name: String?
        /// Each certificate's subject as Zeek writes it (RFC 2253: last RDN first, ',' between);
        /// nil when the chain went encrypted (TLS 1.3).
        let subjects: [String]?
    }

    /// Transcribed from zeek/zeek's `testing/btest/Baseline/scripts.base.protocols.{imap,smtp,pop3,xmpp,ldap}.starttls/`
    /// at the commit the README names.
    static let traces: [Expected] = [
        Expected(file: "imap-starttls.pcap", opening: "imapStartTLS", server: "212.227.17.186:143", version: 0x0303,
                 cipherSuite: "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", name: nil, subjects: [
                    "CN=imap.gmx.net,emailAddress=server-certs@1und1.de,L=Montabaur,ST=Rhineland-Palatinate,O=1&1 Mail & Media GmbH,C=DE",
                    "CN=TeleSec ServerPass DE-1,street=Untere Industriestr. 20,L=Netphen,postalCode=57250,ST=NRW,OU=T-Systems Trust Center,O=T-Systems International GmbH,C=DE",
                    "CN=Deutsche Telekom Root CA 2,OU=T-TeleSec Trust Center,O=Deutsche Telekom AG,C=DE"]),
        Expected(file: "smtp-starttls.pcap", opening: "smtpStartTLS", server: "74.125.142.26:25", version: 0x0303,
                 cipherSuite: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", name: nil, subjects: [
                    "CN=mx.google.com,O=Google Inc,L=Mountain View,ST=California,C=US",
                    "CN=Google Internet Authority G2,O=Google Inc,C=US",
                    "CN=GeoTrust Global CA,O=GeoTrust Inc.,C=US"]),
        Expected(file: "pop3-starttls.pcap", opening: "pop3STLS", server: "192.168.4.149:110", version: 0x0303,
                 cipherSuite: "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384", name: nil, subjects: [
                    "emailAddress=postmaster@lilawelt.de,CN=chimaera.lilawelt.de,OU=Servers,O=Lilawelt,L=Munich,C=DE"]),
        Expected(file: "xmpp-starttls.pcap", opening: "xmppStartTLS", server: "146.255.57.229:5222", version: 0x0303,
                 cipherSuite: "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", name: nil, subjects: [
                    "CN=jabber.ccc.de,O=Chaos Computer Club e.V.,L=Hamburg,ST=Hamburg,C=DE",
                    "emailAddress=support@cacert.org,CN=CA Cert Signing Authority,OU=http://www.cacert.org,O=Root CA"]),
        Expected(file: "ldap-starttls.pcap", opening: "ldapStartTLS", server: "127.0.1.1:389", version: 0x0304,
                 cipherSuite: "TLS_AES_256_GCM_SHA384", name: "ubuntu-01.example.com", subjects: nil),
    ]

    /// A subject's attributes, whichever order and separator it was written in: Zeek's ','
    /// (no value in these traces holds one) or our ', ' in certificate order.
    static func attributes(_ subject: String) -> Set<String> {
        Set(subject.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    }

    @Test("Zeek's IMAP, SMTP, POP3, XMPP and LDAP STARTTLS traces: the switch, the answer and the chain Zeek's baseline reads",
          arguments: traces.map(\.file))
    func startTLSTraceAgreesWithZeek(file: String) throws {
        let expected = try #require(Self.traces.first { $0.file == file })
        let capture = ZeekTraceTests.captures.appendingPathComponent(file)
        let analysis = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["analyze", capture.path, "--json"])
        #expect(analysis.status == 0, "\(analysis.err)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(analysis.out.utf8)) as? [String: Any])
        let conversations = try #require(document["conversations"] as? [[String: Any]])
        let conversation = try #require(conversations.first { $0["server"] as? String == expected.server },
                                        "\(file): no conversation to \(expected.server)")
        #expect(conversation["streamOpening"] as? String == expected.opening, "\(file)")
        let answer = try #require(conversation["serverAnswer"] as? [String: Any], "\(file)")
        #expect(answer["version"] as? Int == expected.version, "\(file)")
        #expect(answer["cipherSuiteName"] as? String == expected.cipherSuite, "\(file)")
        #expect(conversation["sni"] as? String == expected.name, "\(file)")
        guard let subjects = expected.subjects else { return }
        let chain = try #require((conversation["certificates"] as? [String: Any])?["chain"] as? [[String: Any]], "\(file)")
        #expect(chain.map { Self.attributes($0["subject"] as? String ?? "") } == subjects.map(Self.attributes), "\(file)")
    }
}
