import Foundation
import Linux
import TestSupport
import Testing

/// `tunnelvision demo` as a newcomer runs it, read back with the reading commands: the history it
/// leaves shows the product — connections by name from each source, a TLS 1.2 chain of three, a
/// QUIC row, a burst summed as one — and tshark reads the same names in the demo's capture.
/// Needs root, curl, openssl, aioquic and tshark (scripts/test installs them).
@Suite("The demo's first five minutes", .serialized)
struct DemoTests {
    typealias Flow = [String: Any]

    static func tunnelvision(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), arguments)
    }

    /// The value at `path` of `document` as Python's json reads it, then handed to Foundation.
    static func json(_ document: String, _ path: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(try PythonJSON.value(document, path).utf8), options: .fragmentsAllowed)
    }

    @Test("the demo names nearly every connection by SNI, QUIC Initial or DNS, keeps a TLS 1.2 chain of three, sums its burst, and tshark agrees")
    func demoShowsTheProduct() throws {
        let data = TemporaryDirectory("demo")
        let demo = try Self.tunnelvision(["demo", "--data-dir", data.url.path])
        #expect(demo.status == 0, "\(demo.err)")
        #expect(!demo.err.contains("FAILED"), "\(demo.err)")
        #expect(demo.out.contains("files.demo.test — 50 connections started within"), "\(demo.out)")
        #expect(demo.err.contains("tunnelvision flows --data-dir \(data.url.path)"), "\(demo.err)")

        let listing = try Self.tunnelvision(["flows", "--data-dir", data.url.path, "--json", "--limit", "500"])
        #expect(listing.status == 0, "\(listing.err)")
        let flows = try #require(try Self.json(listing.out, "flows") as? [Flow])
        let unnamed = flows.filter { $0["name"] is NSNull }
        #expect(flows.count >= 55 && unnamed.count <= 1, "unnamed: \(unnamed)")

        // The lookups are flows of their own, named by what they asked: set apart here.
        let lookups = flows.filter { $0["nameSource"] as? String == "dnsQuery" }
        func named(_ name: String) -> [Flow] {
            flows.filter { $0["name"] as? String == name && $0["nameSource"] as? String != "dnsQuery" }
        }
        func sources(_ name: String) -> Set<String> { Set(named(name).compactMap { $0["nameSource"] as? String }) }
        func ports(_ name: String) -> Set<Int> { Set(named(name).compactMap { ($0["remote"] as? Flow)?["port"] as? Int }) }
        #expect(sources("shop.demo.test") == ["sni"] && ports("shop.demo.test") == [443])
        #expect(sources("news.demo.test") == ["sni"] && ports("news.demo.test") == [443])
        let quic = named("video.demo.test").filter { $0["protocol"] as? String == "udp" }
        #expect(quic.count == 1 && quic.first?["nameSource"] as? String == "quic", "\(named("video.demo.test"))")
        #expect(sources("files.demo.test") == ["dns"] && ports("files.demo.test") == [8080])
        #expect(named("files.demo.test").count == 1 + 50)
        #expect(sources("ns.demo.test") == ["dns"])
        let asked = Set(lookups.compactMap { $0["name"] as? String })
        #expect(asked.isSuperset(of: ["shop.demo.test", "news.demo.test", "video.demo.test", "files.demo.test"]), "\(asked)")
        #expect(lookups.allSatisfy { ($0["remote"] as? Flow)?["port"] as? Int == 53 }, "\(lookups)")
        // Plain DNS, whatever its query's ID (one in four begins like a QUIC long header).
        #expect(lookups.allSatisfy { $0["tlsStatus"] as? String == "plaintext" }, "\(lookups)")
        let outcomes = Set(lookups.compactMap { (($0["dns"] as? Flow)?["reply"] as? Flow)?["outcome"] as? String })
        #expect(outcomes.contains("answered"), "\(lookups)")

        let bursts = try #require(try Self.json(listing.out, "bursts") as? [Flow])
        #expect(bursts.count == 1)
        #expect(bursts.first?["count"] as? Int == 50 && bursts.first?["host"] as? String == "files.demo.test"
                && bursts.first?["port"] as? Int == 8080, "\(bursts)")
        let text = try Self.tunnelvision(["flows", "--data-dir", data.url.path, "--limit", "500"])
        #expect(text.out.contains("a burst of 50 connections to files.demo.test:8080 started within"), "\(text.out)")

        // The TLS 1.2 connection: its offer, its answer and the whole chain, as the inspector shows them.
        let shopID = try #require(named("shop.demo.test").first?["id"] as? Int)
        let shop = try Self.tunnelvision(["flow", "\(shopID)", "--data-dir", data.url.path, "--json"])
        #expect(shop.status == 0, "\(shop.err)")
        #expect(try Self.json(shop.out, "serverAnswer.version") as? Int == 0x0303)
        #expect(try Self.json(shop.out, "clientOffer.versions") is [Int])
        #expect(try Self.json(shop.out, "certificates.visibility") as? String == "presented")
        let chain = try #require(try Self.json(shop.out, "certificates.chain") as? [Flow])
        let subjects = chain.compactMap { $0["subject"] as? String }
        #expect(subjects.count == 3, "\(subjects)")
        #expect(subjects.first?.contains("CN=shop.demo.test") == true)
        #expect(subjects.dropFirst().first?.contains("CN=TunnelVision Demo Intermediate CA") == true)
        #expect(subjects.last?.contains("CN=TunnelVision Demo Root CA") == true)
        let newsID = try #require(named("news.demo.test").first?["id"] as? Int)
        let news = try Self.tunnelvision(["flow", "\(newsID)", "--data-dir", data.url.path, "--json"])
        #expect(try Self.json(news.out, "serverAnswer.version") as? Int == 0x0304)
        #expect(try Self.json(news.out, "certificates.visibility") as? String == "encryptedInHandshake")

        // tshark, reading the demo's own capture, finds the same names from the same sources.
        let capture = try #require(try FileManager.default.contentsOfDirectory(
            at: data.url.appendingPathComponent("captures"), includingPropertiesForKeys: nil).first { $0.pathExtension == "pcap" })
        func names(_ filter: String, _ field: String) throws -> Set<String> {
            Set(try Tshark.fields([field], of: capture, options: ["-Y", filter]).flatMap { $0[field] ?? [] })
        }
        func ourNames(_ source: String) -> Set<String> {
            Set(flows.filter { $0["nameSource"] as? String == source }.compactMap { $0["name"] as? String })
        }
        #expect(try names("tcp && tls.handshake.type == 1", "tls.handshake.extensions_server_name") == ourNames("sni"))
        #expect(try names("quic && tls.handshake.type == 1", "tls.handshake.extensions_server_name") == ourNames("quic"))
        #expect(try names("dns.flags.response == 1 && dns.a", "dns.qry.name").isSuperset(of: ourNames("dns")))
        #expect(ourNames("dns") == ["ns.demo.test", "files.demo.test"])
        #expect(try names("dns.flags.response == 0", "dns.qry.name") == ourNames("dnsQuery"))

        // The QUIC connection: what its server chose, read live from the server's Initials, as
        // tshark reads it in the same capture.
        let videoID = try #require(quic.first?["id"] as? Int)
        let video = try Self.tunnelvision(["flow", "\(videoID)", "--data-dir", data.url.path, "--json"])
        let suites = try names("quic && tls.handshake.type == 2", "tls.handshake.ciphersuite").compactMap { Int($0.dropFirst(2), radix: 16) }
        #expect(suites.count == 1, "\(suites)")
        #expect(try Self.json(video.out, "serverAnswer.version") as? Int == 0x0304, "\(video.out)")
        #expect(try Self.json(video.out, "serverAnswer.cipherSuite") as? Int == suites.first)
        #expect(try Self.json(video.out, "certificates.visibility") as? String == "encryptedInHandshake")
    }
}
