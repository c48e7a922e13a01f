import Foundation
import Testing
import TestSupport
@testable import App
@testable import Shared

/// How a DNS flow's question and reply, and encrypted DNS, are said: in words and in the JSON
/// every flow document carries (read back by Python's json).
@Suite struct DNSExchangeWordingTests {
    static func key(_ proto: IPProtocolNumber, port: UInt16) -> FlowKey {
        FlowKey(proto: proto, source: IPEndpoint(address: IPAddress(parsing: "198.18.0.2")!, port: 40_000),
                destination: IPEndpoint(address: IPAddress(parsing: "198.18.9.9")!, port: port))
    }

    @Test("answers, no such name, no records of that type, a failure and no reply, each in its own words")
    func words() {
        func reply(_ code: UInt8, _ count: Int, _ answers: [String] = []) -> DNSExchange {
            DNSExchange(question: "www.example.test", questionType: 1, reply: DNSReply(responseCode: code, answerCount: count, answers: answers))
        }
        #expect(DNSExchangeWording.text(reply(0, 2, ["edge.example.test", "198.19.0.2"]))
                == "www.example.test (A): 2 answers — edge.example.test, 198.19.0.2")
        #expect(DNSExchangeWording.text(reply(0, 1, ["198.19.0.2"])) == "www.example.test (A): 1 answer — 198.19.0.2")
        #expect(DNSExchangeWording.text(reply(3, 0)) == "www.example.test (A): no such name (NXDOMAIN)")
        #expect(DNSExchangeWording.text(reply(0, 0)) == "www.example.test (A): no records of that type (the name exists)")
        #expect(DNSExchangeWording.text(reply(2, 0)) == "www.example.test (A): the server did not answer (SERVFAIL)")
        #expect(DNSExchangeWording.text(DNSExchange(question: "v6.example.test", questionType: 28)) == "v6.example.test (AAAA): no reply seen")
    }

    @Test("DoT and DoQ by port 853, DoH by a public resolver's name on 443, nothing else")
    func encryptedDNS() {
        #expect(EncryptedDNS(key: Self.key(.tcp, port: 853), announcedName: nil) == .dnsOverTLS)
        #expect(EncryptedDNS(key: Self.key(.udp, port: 853), announcedName: nil) == .dnsOverQUIC)
        #expect(EncryptedDNS(key: Self.key(.tcp, port: 443), announcedName: "Cloudflare-DNS.com") == .dnsOverHTTPS)
        #expect(EncryptedDNS(key: Self.key(.udp, port: 443), announcedName: "dns.google") == .dnsOverHTTPS)
        #expect(EncryptedDNS(key: Self.key(.tcp, port: 443), announcedName: "www.example.test") == nil)
        #expect(EncryptedDNS(key: Self.key(.tcp, port: 8443), announcedName: "dns.google") == nil)
        #expect(EncryptedDNS(key: Self.key(.udp, port: 53), announcedName: nil) == nil)
    }

    @Test("the JSON: the question, its type's mnemonic, the reply's code, name, outcome and answers; null when none")
    func json() throws {
        var out = JSONWriter()
        out.beginObject()
        DNSExchangeWording.write(DNSExchange(question: "gone.example.test", questionType: 28,
                                             reply: DNSReply(responseCode: 3, answerCount: 0, answers: [])),
                                 encrypted: nil, to: &out)
        out.endObject()
        let text = out.writer.string
        #expect(try PythonJSON.value(text, "dns.type") == "\"AAAA\"")
        #expect(try PythonJSON.value(text, "dns.reply.codeName") == "\"NXDOMAIN\"")
        #expect(try PythonJSON.value(text, "dns.reply.outcome") == "\"noSuchName\"")
        #expect(try PythonJSON.value(text, "dns.reply.answers") == "[]")
        #expect(try PythonJSON.value(text, "encryptedDNS") == "null")
        var none = JSONWriter()
        none.beginObject()
        DNSExchangeWording.write(nil, encrypted: .dnsOverTLS, to: &none)
        none.endObject()
        #expect(try PythonJSON.value(none.writer.string, "dns") == "null")
        #expect(try PythonJSON.value(none.writer.string, "encryptedDNS") == "\"dot\"")
    }
}
