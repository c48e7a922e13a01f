import Foundation
import TestSupport
import Testing

/// Zeek's TLS and QUIC test traces (`Tests/Captures/zeek`: every `.pcap` of its
/// `testing/btest/Traces/tls/`, and in `quic/` those of `Traces/quic/` under 100 KB; the README
/// names the commit), read by `tunnelvision analyze` and by tshark: real clients and servers of a
/// decade — SSLv3 to TLS 1.3 and its drafts, STARTTLS, HelloRetryRequest, warning alerts, OCSP
/// stapling, client certificates, QUIC v1 and v2 from Chromium, Firefox, curl and quic-go, Retry,
/// and two of Zeek's crash reproducers — where tshark reads a hello, analyze must read the same. Compared per conversation: the server name as sent, JA3, the server's version and cipher
/// suite, JA3S, and the server's certificate chain (subjects and issuers). DTLS is not read by
/// analyze and tshark's `dtls` layer is not compared. Needs tshark.
@Suite("analyze agrees with tshark on Zeek's TLS traces", .serialized)
struct ZeekTLSTracesOracleTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Captures/zeek")

    /// Every plain `.pcap` there and in `quic/`, by its path under `zeek/` (the fragmented-handshake
    /// trace is compressed and has its own test).
    static let traces = traces(in: "") + traces(in: "quic/")

    static func traces(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(folder).path)) ?? [])
            .filter { $0.hasSuffix(".pcap") || $0.hasSuffix(".pcapng") }.sorted().map { folder + $0 }
    }

    /// Traces where tshark reads no hello, answer or chain over TLS or QUIC: DTLS, OCSP over HTTP,
    /// plain HTTP, IRC's STARTTLS, DNS over QUIC on 853, and the crash reproducers. Every other
    /// trace must compare something, so one whose reading silently broke fails.
    static let withoutComparedFacts: Set<String> = [
        "dtls-sequence-number-jumps.pcap", "dtls13-cid.pcap", "dtls13-wolfssl.pcap", "dtls1_0.pcap", "dtls1_2.pcap",
        "webrtc-stun.pcap", "https-to-http.pcap", "ssl-to-http-server.pcap", "irc-starttls.pcap",
        "ocsp-empty-responderid.pcap", "ocsp-http-get.pcap", "ocsp-request-only.pcap", "ocsp-request-response.pcap",
        "ocsp-response-only.pcap", "ocsp-revoked.pcap",
        "quic/383379789-decrypt-crash.pcap", "quic/quicdoq.pcap", "quic/vector-max-size-crash.pcap",
    ]

    /// What was compared in one trace, and how much agreed.
    struct Tally {
        var facts = 0
        var agreed = 0

        mutating func compare<Value: Equatable>(_ ours: Value, _ theirs: Value, _ what: String, at: Comment) {
            facts += 1
            if ours == theirs { agreed += 1 } else { Issue.record("\(at): \(what): analyze \(ours), tshark \(theirs)") }
        }
    }

    @Test("the directory holds Zeek's traces")
    func tracesArePresent() {
        // 72 and 17 traces at the commit the README names; fewer means the checkout lost some.
        #expect(Self.traces(in: "").count >= 72 && Self.traces(in: "quic/").count >= 17, "\(Self.traces) in \(Self.directory.path)")
    }

    @Test("every hello, answer and chain tshark reads in a Zeek trace, analyze reads the same", arguments: traces)
    func trace(name: String) throws {
        let file = Self.directory.appendingPathComponent(name)
        let reading = try TsharkHandshakes.read(file)
        let report = try FingerprintReferenceTests.analyze(file)
        var tally = Tally()
        for conversation in reading.conversations
        where !conversation.clientHellos.isEmpty || !conversation.serverHellos.isEmpty || !conversation.certificateChains.isEmpty {
            let at = Comment(rawValue: "\(name): \(conversation.transport.rawValue) \(conversation.client) → \(conversation.server)")
            let found = report.conversations.filter {
                $0.protocol == conversation.transport.rawValue && $0.client == conversation.client && $0.server == conversation.server
            }
            tally.compare(found.count, 1, "conversations", at: at)
            guard let ours = found.first else { continue }
            if let hello = conversation.clientHellos.first {
                tally.compare(ours.sni ?? ours.clientOffer?.serverNameAsSent, hello.serverName, "server name", at: at)
                tally.compare(ours.fingerprints?.ja3, hello.ja3, "JA3", at: at)
            }
            if let answer = conversation.serverHellos.first {
                tally.compare(ours.serverAnswer?.version, answer.version, "version", at: at)
                tally.compare(ours.serverAnswer?.cipherSuite, answer.cipherSuite, "cipher suite", at: at)
                tally.compare(ours.fingerprints?.ja3s, answer.ja3s, "JA3S", at: at)
            }
            if let chain = conversation.certificateChains.first {
                let theirs = chain.map { "\(TsharkCertificate.text(of: $0.subject)) ← \(TsharkCertificate.text(of: $0.issuer))" }
                tally.compare(ours.certificates?.chain?.map { "\($0.subject) ← \($0.issuer)" } ?? [], theirs, "chain", at: at)
            }
        }
        #expect(Self.withoutComparedFacts.contains(name) == (tally.facts == 0),
                "\(name): \(tally.facts) facts compared, none expected: \(Self.withoutComparedFacts.contains(name))")
        print("\(name): \(tally.agreed) of \(tally.facts) facts tshark reads, read alike")
    }
}
