import Foundation
import TestSupport
import Testing

/// JA4 on FoxIO's reference captures, against the reference implementation's published outputs,
/// and JA3/JA3S on the same captures against tshark's: every hello `tunnelvision analyze` reads
/// there. The captures and outputs are in `Tests/Captures/ja4` (its README names their
/// source and commit). Needs tshark.
@Suite("fingerprints agree with the JA4 reference and with tshark", .serialized)
struct FingerprintReferenceTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Captures/ja4")

    static let captures = ["tls12.pcap", "tls-alpn-h2.pcap", "tls-non-ascii-alpn.pcapng", "quic-tls-handshake.pcapng",
                           "latest.pcapng", "badcurveball.pcap", "ipv6.pcapng", "tls-sni.pcapng",
                           "chrome-cloudflare-quic-with-secrets.pcapng", "https3-301-get.pcap", "browsers-x509.pcapng",
                           "socks-https-example.pcap", "https-connect.pcap", "tls-handshake.pcapng"]

    /// What the specification says where both references still print their older rule: the
    /// first ALPN value 0xBA 0xAD is "bd" (first and last hex digits), not "99" (README).
    static let specificationOverrides = ["t13d151699_8daaf6152771_e5627efa2ab1": "t13d1516bd_8daaf6152771_e5627efa2ab1"]

    /// One stream of a reference snapshot that has a JA4.
    struct Expected {
        var transport: String
        var client: String
        var server: String
        var ja4: String
    }

    /// The `- stream:` entries of an insta snapshot (YAML written by the Rust reference), with the
    /// fields a JA4 needs.
    static func expectations(_ snapshot: String) -> [Expected] {
        var found: [Expected] = []
        for entry in snapshot.components(separatedBy: "\n- stream:").dropFirst() {
            var fields: [String: String] = [:]
            for line in entry.split(separator: "\n") where line.hasPrefix("  ") && !line.hasPrefix("   ") {
                let parts = line.dropFirst(2).split(separator: ":", maxSplits: 1)
                guard parts.count == 2 else { continue }
                fields[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces)
            }
            guard let ja4 = fields["ja4"], let transport = fields["transport"], let src = fields["src"],
                  let dst = fields["dst"], let srcPort = fields["src_port"], let dstPort = fields["dst_port"] else { continue }
            found.append(Expected(transport: transport, client: endpoint(src, srcPort), server: endpoint(dst, dstPort),
                                  ja4: specificationOverrides[ja4] ?? ja4))
        }
        return found
    }

    static func endpoint(_ address: String, _ port: String) -> String {
        address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
    }

    static func analyze(_ capture: URL) throws -> AnalyzeReport {
        let result = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["analyze", capture.path, "--json"])
        try #require(result.status == 0, "analyze exited \(result.status): \(result.err)")
        return try JSONDecoder().decode(AnalyzeReport.self, from: Data(result.out.utf8))
    }

    @Test("every JA4 the reference publishes for its captures is the one analyze prints", arguments: captures)
    func ja4(capture: String) throws {
        let snapshot = try String(contentsOf: Self.directory.appendingPathComponent("\(capture).snap"), encoding: .utf8)
        let expected = Self.expectations(snapshot)
        try #require(!expected.isEmpty, "\(capture): the snapshot has no JA4")
        let report = try Self.analyze(Self.directory.appendingPathComponent(capture))
        for stream in expected {
            let found = report.conversations.filter {
                $0.protocol == stream.transport && $0.client == stream.client && $0.server == stream.server
            }
            #expect(found.count == 1, "\(capture): \(stream.transport) \(stream.client) → \(stream.server)")
            guard let conversation = found.first else { continue }
            #expect(conversation.fingerprints?.ja4 == stream.ja4, "\(capture): \(conversation)")
        }
        // Nothing printed that the reference does not: a JA4 only where it has one.
        let printed = report.conversations.filter { $0.fingerprints?.ja4 != nil }
        #expect(printed.count == expected.count, "\(capture): \(printed.count) JA4s printed, \(expected.count) published")
    }

    @Test("every JA3 and JA3S tshark computes on the reference captures is the one analyze prints", arguments: captures)
    func ja3(capture: String) throws {
        let file = Self.directory.appendingPathComponent(capture)
        let reading = try TsharkHandshakes.read(file)
        let report = try Self.analyze(file)
        var compared = 0
        for conversation in reading.conversations where !conversation.clientHellos.isEmpty || !conversation.serverHellos.isEmpty {
            let found = report.conversations.filter {
                $0.protocol == conversation.transport.rawValue && $0.client == conversation.client && $0.server == conversation.server
            }
            let at = Comment(rawValue: "\(capture): \(conversation.transport.rawValue) \(conversation.client) → \(conversation.server)")
            #expect(found.count == 1, at)
            guard let prints = found.first?.fingerprints else {
                Issue.record("no fingerprints: \(at)")
                continue
            }
            if let hello = conversation.clientHellos.first {
                #expect(prints.ja3Full == hello.ja3Full && prints.ja3 == hello.ja3, at)
                compared += 1
            }
            if let answer = conversation.serverHellos.first {
                #expect(prints.ja3sFull == answer.ja3sFull && prints.ja3s == answer.ja3s, at)
                compared += 1
            }
        }
        #expect(compared > 0, "\(capture): tshark read no hello")
        print("\(capture): \(compared) JA3/JA3S values compared with tshark")
    }
}
