import Foundation
import Linux
import TestSupport
import Testing

/// Issue 5: real clients and servers, tshark as the oracle. One capture of the lab's handshakes
/// (`HandshakeCapture`) is recorded for the suite; `tunnelvision analyze FILE --json` must read
/// in it every conversation tshark reads, with the same names, versions, cipher suites, ALPN
/// lists and certificates. Needs root, tshark (with dumpcap), curl, openssl and aioquic.
@Suite("tunnelvision analyze agrees with tshark on real handshakes", .serialized, .recordedHandshakes)
struct AnalyzeOracleTests {
    @Test("the lab played its scenario: tshark reads every kind of handshake it should")
    func tsharkReadsTheScenario() throws {
        let capture = try RecordedHandshakes.capture()
        let reading = capture.reading
        if ProcessInfo.processInfo.environment["TUNNELVISION_ORACLE_DUMP"] != nil { print(reading.summary) }
        let tls = reading.conversations.filter { $0.transport == .tcp && !$0.clientHellos.isEmpty }
        let leaf = HandshakeCertificates.leafName

        // TLS 1.3 and TLS 1.2 with the two-certificate chain, its names as the contract writes them.
        #expect(tls.contains { $0.serverHellos.first?.version == 0x0304 && $0.certificateChains.isEmpty
                               && $0.clientHellos.first?.alpn == ["h2", "http/1.1"] })
        let chains = tls.filter { $0.serverHellos.first?.version == 0x0303 && $0.serverHellos.first?.cipherSuite == 0xC02F }
            .compactMap(\.certificateChains.first)
        #expect(chains.count >= 4)
        for chain in chains {
            try #require(chain.count == 2)
            #expect(TsharkCertificate.text(of: chain[0].subject) == "C=XX, ST=Île-de-France, O=Lab, OU=\\#1 Team, CN=\(leaf)")
            #expect(TsharkCertificate.text(of: chain[0].issuer) == "C=XX, O=Lab\\, Inc., OU=Tests+OU=Réseau, CN=Lab Intermediate CA")
            #expect(TsharkCertificate.text(of: chain[1].subject) == TsharkCertificate.text(of: chain[0].issuer))
            #expect(TsharkCertificate.text(of: chain[1].issuer) == "C=XX, O=Lab Root, CN=Lab Root CA")
            #expect(chain[0].notAfter < "2050" && chain[1].notAfter > "2050")   // a UTCTime and a GeneralizedTime
        }
        // The refusal, the hello without supported_versions, the one without SNI, the retry over IPv6.
        #expect(tls.contains { $0.serverHellos.isEmpty && $0.serverFirstRecordType == 21 && $0.serverAlerts == [70] })
        #expect(tls.contains { $0.clientHellos.first?.supportedVersions == nil && $0.clientHellos.first?.legacyVersion == 0x0303 })
        #expect(tls.contains { $0.clientHellos.first?.serverName == nil && $0.serverHellos.first?.version == 0x0303 })
        #expect(tls.contains { $0.clientHellos.first?.serverName == HandshakeCapture.notAHostName })
        #expect(tls.contains { $0.client.hasPrefix("[") && $0.serverHellos.map(\.isHelloRetryRequest) == [true, false]
                               && $0.clientHellos.count == 2 })
        #expect(tls.allSatisfy { $0.opening == .tlsHandshake })

        // DNS, answered directly and through a CNAME, then plain HTTP to each answer.
        let responses = reading.dnsResponses
        #expect(responses.contains { $0.questions == [HandshakeCapture.plainName] && $0.addresses == [HandshakeCapture.plainAddress] })
        #expect(responses.contains { $0.questions == [HandshakeCapture.aliasName] && $0.aliases == [HandshakeCapture.aliasTarget]
                                     && $0.addresses == [HandshakeCapture.aliasIPv6] })
        let plain = reading.conversations.filter { $0.opening == .httpRequest }
        #expect(plain.count == 2)
        #expect(plain.contains { $0.serverAddress == HandshakeCapture.plainAddress
                                 && reading.namesResolved(to: $0.serverAddress, before: $0.firstFrame) == [HandshakeCapture.plainName] })

        // QUIC v1 and v2, without and with a Retry: each side's Initials read, the client's
        // ClientHello and the server's ServerHello.
        let quic = reading.conversations.filter { $0.quicVersion != nil }
        #expect(quic.map(\.quicVersion) == [1, 0x6B33_43CF, 1, 0x6B33_43CF])
        #expect(quic.map(\.quicRetries) == [0, 0, 1, 1])
        #expect(quic.allSatisfy { $0.clientHellos.first?.serverName == leaf && $0.clientHellos.first?.alpn == ["h3"] })
        #expect(quic.allSatisfy { $0.serverHellos.first?.version == 0x0304 })
    }

    @Test("every conversation tunnelvision analyze reports equals tshark's reading of it")
    func analyzeAgreesWithTshark() throws {
        let capture = try RecordedHandshakes.capture()
        let result = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["analyze", capture.file.path, "--json"])
        try #require(result.status == 0, "analyze exited \(result.status): \(result.err)")
        let report = try JSONDecoder().decode(AnalyzeReport.self, from: Data(result.out.utf8))
        Self.check(report, against: capture)
    }

    /// The report against tshark's reading: the same conversations, each field equal, and every
    /// kind of conversation the scenario made present.
    static func check(_ report: AnalyzeReport, against capture: HandshakeCapture) {
        let reading = capture.reading
        #expect(report.file == capture.file.path)
        #expect(report.packets == reading.frames)
        #expect(report.unreadablePackets <= reading.framesWithoutIP)

        let key = { (transport: String, client: String, server: String) in "\(transport) \(client) → \(server)" }
        let expected = Dictionary(reading.conversations.map { (key($0.transport.rawValue, $0.client, $0.server), $0) },
                                  uniquingKeysWith: { first, _ in first })
        // tshark has no conversation streams for ICMP; analyze reports ICMP flows too.
        let reported = Dictionary(report.conversations.filter { $0.protocol == "tcp" || $0.protocol == "udp" }
                                      .map { (key($0.protocol, $0.client, $0.server), [$0]) }, uniquingKeysWith: +)
        #expect(Set(reported.keys).subtracting(expected.keys).isEmpty, "conversations tshark does not see")
        #expect(Set(expected.keys).subtracting(reported.keys).isEmpty, "conversations analyze misses")
        #expect(reported.values.allSatisfy { $0.count == 1 }, "a conversation reported twice")
        for (name, conversation) in expected {
            guard let found = reported[name]?.first else { continue }
            compare(found, ExpectedConversation(conversation, in: reading), conversation)
        }

        // Not an empty agreement: the report holds every kind of conversation the scenario made.
        let all = report.conversations
        #expect(all.contains { $0.serverAnswer?.version == 0x0303 && $0.certificates?.visibility == "presented"
                               && $0.certificates?.chain?.count == 2 })
        #expect(all.contains { $0.serverAnswer?.version == 0x0304 && $0.certificates?.visibility == "encryptedInHandshake" })
        #expect(all.contains { $0.serverAnswer?.alert == 70 && $0.certificates?.visibility == "noNegotiation" })
        #expect(all.contains { $0.serverAnswer?.helloRetryRequest == true })
        #expect(all.contains { $0.clientOffer?.serverNameAsSent == HandshakeCapture.notAHostName && $0.sni == nil && $0.name == nil })
        #expect(all.contains { $0.protocol == "tcp" && $0.sni == nil && $0.nameSource == "dns"
                               && $0.name == HandshakeCapture.plainName && $0.streamOpening == "httpRequest" })
        #expect(Set(all.filter { $0.nameSource == "quic" }.compactMap(\.quicVersion)) == [1, 0x6B33_43CF])
        let lookups = all.filter { $0.nameSource == "dnsQuery" }
        #expect(Set(lookups.compactMap(\.name)) == [HandshakeCapture.plainName, HandshakeCapture.aliasName], "\(lookups)")
        #expect(lookups.allSatisfy { $0.dns?.reply?.outcome == "answered" })
        let quicAnswered = all.filter { $0.quicVersion != nil && $0.serverAnswer?.version == 0x0304 }
        #expect(quicAnswered.count == 4 && quicAnswered.allSatisfy { $0.certificates?.visibility == "encryptedInHandshake" })
    }

    /// Every field of one conversation against tshark's reading.
    static func compare(_ found: AnalyzeReport.Conversation, _ expected: ExpectedConversation, _ tshark: TsharkConversation) {
        let at = Comment(rawValue: "\(tshark)")
        #expect(found.packets == expected.packets, at)
        #expect(found.bytesFromClient == expected.bytesFromClient, at)
        #expect(found.bytesFromServer == expected.bytesFromServer, at)
        #expect(found.sni == expected.sni, at)
        #expect(found.quicVersion == expected.quicVersion, at)
        #expect(found.streamOpening == expected.streamOpening, at)
        #expect(found.clientOffer == expected.clientOffer, at)
        #expect(found.serverAnswer == expected.serverAnswer, at)
        // JA3 and JA3S as Wireshark computes them, on every hello it reads.
        #expect(found.fingerprints?.ja3Full == expected.ja3.full && found.fingerprints?.ja3 == expected.ja3.hash, at)
        #expect(found.fingerprints?.ja3sFull == expected.ja3s.full && found.fingerprints?.ja3s == expected.ja3s.hash, at)
        #expect((found.fingerprints?.ja4 != nil) == (found.clientOffer != nil), at)
        #expect(found.certificates.map { expected.visibilities?.contains($0.visibility) == true } ?? (expected.visibilities == nil),
                "\(tshark): visibility \(found.certificates?.visibility ?? "nil"), tshark allows \(expected.visibilities ?? [])")
        if let chain = expected.chain {
            #expect(found.certificates?.chain == chain, at)
            #expect(found.certificates?.complete == true, at)
        } else {
            #expect(found.certificates?.chain ?? [] == [], at)
        }

        // A DNS conversation: named by what it asked, with the reply tshark reads (answers in any order).
        var dns = found.dns
        if var reply = dns?.reply {
            reply.answers.sort()
            dns?.reply = reply
        }
        #expect(dns == expected.dns, at)
        #expect(found.nameSource == expected.nameSource, at)
        #expect(found.name.map(expected.names.contains) ?? expected.names.isEmpty, "\(tshark): name \(found.name ?? "nil")")
        if expected.nameSource == "dns" {
            #expect(Set(found.otherNames + [found.name].compactMap { $0 }) == expected.names, at)
        }
        #expect(Set(found.otherNames).isSubset(of: expected.otherNameCandidates), at)
    }
}

/// Records the suite's capture once, around all its tests, and removes it after them.
struct RecordedHandshakes: SuiteTrait, TestScoping {
    @TaskLocal static var recording: Result<HandshakeCapture, any Error>?

    /// The suite's capture; throws what recording it threw.
    static func capture() throws -> HandshakeCapture {
        guard let recording else { throw HandshakeCapture.Failed(description: "not inside the suite's scope") }
        return try recording.get()
    }

    func provideScope(for test: Test, testCase: Test.Case?,
                      performing function: @Sendable () async throws -> Void) async throws {
        let recording = Result { try HandshakeCapture.record() }
        try await Self.$recording.withValue(recording, operation: function)
    }
}

extension Trait where Self == RecordedHandshakes {
    static var recordedHandshakes: Self { Self() }
}
