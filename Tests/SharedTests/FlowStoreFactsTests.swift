import Foundation
import TestSupport
import Testing
@testable import Shared

/// Every fact a flow can carry goes in and comes back out as it was.
@Suite struct FlowStoreFactsTests {
    typealias F = StoreFixtures

    /// Upserts `change(record)` and reads the flow back.
    private func roundTrip(_ change: (inout FlowRecord) -> Void) async throws -> StoredFlow {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        var record = F.record(F.key(1))
        change(&record)
        try await store.upsertFlow(record)
        let flow = try #require(try await store.flow(matching: record.key))
        await store.close()
        return flow
    }

    static let chain = ServerCertificateChain(certificates: [
        ServerCertificate(subject: CertificateName(text: "CN=www.example.com"),
                          issuer: CertificateName(text: "CN=Example \"Issuing\" CA, O=Exämple, C=DE…", isTruncated: true),
                          notAfter: Date(timeIntervalSince1970: 1_830_297_600)),
        ServerCertificate(subject: CertificateName(text: "CN=Example \"Issuing\" CA, O=Exämple, C=DE…", isTruncated: true),
                          issuer: CertificateName(text: "CN=Root\nwith a line break"),
                          notAfter: Date(timeIntervalSince1970: -86_400)),
    ], isComplete: false)

    static let readings: [ServerCertificateReading] = [
        .chain(chain), .chain(ServerCertificateChain(certificates: [chain.certificates[0]], isComplete: true)),
        .chain(ServerCertificateChain(certificates: [], isComplete: true)),
        .notSent(.resumedSession), .notSent(.continuedWithoutCertificate),
    ]

    @Test func namesRoundTripAndTheSNIWins() async throws {
        let flow = try await roundTrip {
            $0.sni = "api.example.com"
            $0.resolvedName = ResolvedFlowName(name: "cdn.example.net", otherNames: ["a.example", "b.example"])
        }
        #expect(flow.sni == "api.example.com")
        #expect(flow.resolvedName == ResolvedFlowName(name: "cdn.example.net", otherNames: ["a.example", "b.example"]))
        #expect(flow.name?.text == "api.example.com" && flow.name?.origin == .sni)
        let unnamed = try await roundTrip { _ in }
        #expect(unnamed.name == nil && unnamed.sni == nil && unnamed.resolvedName == nil)
    }

    @Test(arguments: [
        ServerTLSAnswer.negotiated(NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1301),
                                                 fromHelloRetryRequest: true, source: .serverHello)),
        .negotiated(NegotiatedTLS(version: TLSProtocolVersion(rawValue: 0x7F1C), cipherSuite: TLSCipherSuite(rawValue: 0xFFFF),
                                  fromHelloRetryRequest: false, source: .upstreamConnection)),
        .refused(alert: 40), .refused(alert: 0),
    ])
    func theServersAnswerRoundTrips(answer: ServerTLSAnswer) async throws {
        #expect(try await roundTrip { $0.serverTLS = answer }.serverTLS == answer)
    }

    @Test(arguments: [
        ClientTLSOffer(versions: .listed([.tls13, .tls12]), applicationProtocols: ["h2", "http/1.1"],
                       omittedApplicationProtocols: 1, hasEncryptedClientHello: true),
        ClientTLSOffer(versions: .listed([]), applicationProtocols: []),
        ClientTLSOffer(versions: .upTo(.tls12), applicationProtocols: ["h2"]),
        ClientTLSOffer(versions: .upTo(TLSProtocolVersion(rawValue: 0x0A0A))),
    ])
    func theClientsOfferRoundTripsInBothShapes(offer: ClientTLSOffer) async throws {
        #expect(try await roundTrip { $0.clientTLS = offer }.clientTLS == offer)
    }

    @Test("the hellos' fingerprints come back with the offer and the answer they belong to, and not without them")
    func theFingerprintsRoundTrip() async throws {
        let client = ClientHelloFingerprints(ja4: "t13d1516h2_8daaf6152771_e5627efa2ab1", ja3Full: "771,4865,0-16,29,0",
                                             ja3: "ada70206e40642a3e4461f35503241d5")
        let server = ServerHelloFingerprints(ja3sFull: "771,4865,43-51", ja3s: "eb1d94daa7e0344597e756a1fb6e7054")
        let flow = try await roundTrip {
            $0.clientTLS = ClientTLSOffer(versions: .listed([.tls13]))
            $0.clientFingerprints = client
            $0.serverTLS = .negotiated(NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1301),
                                                     fromHelloRetryRequest: false, source: .serverHello))
            $0.serverFingerprints = server
        }
        #expect(flow.clientFingerprints == client && flow.serverFingerprints == server)
        // A refusal has no ServerHello, and a record without an offer reports no client group.
        let refused = try await roundTrip {
            $0.serverTLS = .refused(alert: 40)
            $0.serverFingerprints = server
            $0.clientFingerprints = client
        }
        #expect(refused.clientFingerprints == nil && refused.serverFingerprints == nil)
    }

    @Test func anUnlistableProtocolNameIsCountedAsOmitted() async throws {
        let flow = try await roundTrip {
            $0.clientTLS = ClientTLSOffer(versions: .listed([.tls13]), applicationProtocols: ["h2", "bad name", ""],
                                          omittedApplicationProtocols: 2)
        }
        #expect(flow.clientTLS?.applicationProtocols == ["h2"] && flow.clientTLS?.omittedApplicationProtocols == 4)
    }

    @Test(arguments: [
        QUICVersionReading(version: .v1, source: .client), QUICVersionReading(version: .v2, source: .server),
        QUICVersionReading(version: QUICVersion(rawValue: 0xFFFF_FFFF), source: .server),
    ])
    func theQUICVersionRoundTrips(reading: QUICVersionReading) async throws {
        #expect(try await roundTrip { $0.quic = reading }.quic == reading)
    }

    @Test(arguments: readings)
    func theCertificateReadingRoundTrips(reading: ServerCertificateReading) async throws {
        #expect(try await roundTrip { $0.serverCertificates = reading }.serverCertificates == reading)
    }

    @Test(arguments: StreamOpening.allCases)
    func theStreamOpeningRoundTrips(opening: StreamOpening) async throws {
        #expect(try await roundTrip { $0.streamOpening = opening }.streamOpening == opening)
    }

    static let reasons: [InspectionReason] = InspectionReasonKind.allCases.map { InspectionReason($0) }
        + [InspectionReason(.upstreamVerificationFailed, detail: "certificate has expired")]

    @Test(arguments: reasons)
    func theInspectionReasonRoundTrips(reason: InspectionReason) async throws {
        #expect(try await roundTrip { $0.inspectionReason = reason }.inspectionReason == reason)
    }

    @Test(arguments: TLSStreamEnding.allCases)
    func theServersEndingRoundTrips(ending: TLSStreamEnding) async throws {
        #expect(try await roundTrip { $0.serverEnding = ending }.serverEnding == ending)
    }

    static let attributions: [ProgramAttribution] = [
        .program(ProgramFacts(pid: 4242, command: "curl", executable: "/usr/bin/curl", uid: 1000, user: "ana")),
        .program(ProgramFacts(pid: 1, command: "kworker/0:1 ü", executable: nil, uid: 0, user: nil)),
        .socketGone, .notLocal, .unavailable("the kernel's socket table could not be asked: Operation not permitted"),
    ]

    @Test("the program behind a flow, or why none was named, comes back as it went in", arguments: attributions)
    func theProgramRoundTrips(attribution: ProgramAttribution) async throws {
        #expect(try await roundTrip { $0.program = attribution }.program == attribution)
    }

    @Test("the machine's end of a flow comes back as either end it went in as; a flow that knows none has none")
    func theLocalEndRoundTrips() async throws {
        let key = F.key(1)
        #expect(try await roundTrip { $0.localEnd = key.endpointA }.localEnd == key.endpointA)
        #expect(try await roundTrip { $0.localEnd = key.endpointB }.localEnd == key.endpointB)
        #expect(try await roundTrip { _ in }.localEnd == nil)
    }

    @Test("a flush that does not know the program keeps the stored one")
    func theProgramIsKept() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        var record = F.record(F.key(1))
        record.program = Self.attributions[0]
        try await store.upsertFlow(record)
        try await store.upsertFlow(F.record(F.key(1), lastSeen: F.uptime(9), packets: 5, status: .encrypted))
        #expect(try await store.flow(matching: record.key)?.program == Self.attributions[0])
        #expect(try await store.flow(matching: record.key)?.packetCount == 5)
        await store.close()
    }

    @Test func theLeafsNegotiationRoundTripsAsTheTunnelLeafs() async throws {
        let leaf = NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1302), fromHelloRetryRequest: false,
                                 source: .tunnelLeaf)
        #expect(try await roundTrip { $0.leafTLS = leaf }.leafTLS == leaf)
    }

    @Test func aFlowThatFailedBeforeTheReasonsWereTypedReadsAsBrokenByInspection() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        try await store.upsertFlow(F.record(F.key(1)))
        await store.close()
        // The file as version 7 left it: a failure's words, no kind, the status it was given then.
        let old = try SQLiteConnection(path: F.databaseURL(in: directory).path, mode: .readWriteCreate)
        try old.execute("""
            \(F.droppingColumnsAdded(after: 7))
            UPDATE flows SET inspection_failure = 'certificate has expired', tls_status = 1; PRAGMA user_version = 7
            """)
        old.close()
        let upgraded = try F.store(in: directory)
        let flow = try #require(try await upgraded.flow(matching: F.key(1)))
        #expect(flow.tlsStatus == .inspectionFailed)
        #expect(flow.inspectionReason == InspectionReason(.upstreamFailed, detail: "certificate has expired"))
        await upgraded.close()
    }

    @Test func aFactTheRecordDoesNotKnowKeepsTheStoredOneAndAKnownOneReplacesItsGroup() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        var record = F.record(F.key(1))
        record.sni = "first.example"
        record.resolvedName = ResolvedFlowName(name: "dns.example", otherNames: ["other.example"])
        record.serverTLS = .negotiated(NegotiatedTLS(version: .tls12, cipherSuite: TLSCipherSuite(rawValue: 0xC02F),
                                                     fromHelloRetryRequest: false, source: .serverHello))
        record.clientTLS = ClientTLSOffer(versions: .listed([.tls13]))
        record.quic = QUICVersionReading(version: .v1, source: .client)
        record.serverCertificates = Self.readings[0]
        record.streamOpening = .tlsHandshake
        try await store.upsertFlow(record)

        // Later flushes report only what changed: every fact nil, the status moved on.
        var later = F.record(F.key(1), lastSeen: F.uptime(9), packets: 5, status: .notInspectable)
        try await store.upsertFlow(later)
        var flow = try #require(try await store.flow(matching: record.key))
        #expect(flow.sni == record.sni && flow.resolvedName == record.resolvedName && flow.serverTLS == record.serverTLS)
        #expect(flow.clientTLS == record.clientTLS && flow.quic == record.quic)
        #expect(flow.serverCertificates == record.serverCertificates && flow.streamOpening == .tlsHandshake)
        #expect(flow.tlsStatus == .notInspectable && flow.packetCount == 5)

        // A known answer replaces the whole group: a refusal clears the negotiated columns.
        later.serverTLS = .refused(alert: 48)
        later.resolvedName = ResolvedFlowName(name: "again.example")
        try await store.upsertFlow(later)
        flow = try #require(try await store.flow(matching: record.key))
        #expect(flow.serverTLS == .refused(alert: 48))
        #expect(flow.resolvedName == ResolvedFlowName(name: "again.example"))
        #expect(flow.sni == "first.example")
        await store.close()
    }
}

/// A row no writer of ours would make reads as `corruptRow`, never as a crash or a guess.
@Suite struct FlowStoreCorruptRowTests {
    typealias F = StoreFixtures

    private func expectCorrupt(after sql: String, containing detail: String) async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        let id = try await store.upsertFlow(F.record(F.key(1)))
        try await store.appendPackets([F.packet(F.key(1), at: F.uptime(1))], flowID: id)
        let vandal = try SQLiteConnection(path: F.databaseURL(in: directory).path, mode: .readWriteCreate)
        try vandal.execute(sql)
        vandal.close()
        do {
            _ = try await store.recentFlows(limit: 10)
            _ = try await store.packets(forFlow: id, limit: 10)
            Issue.record("no error after \(sql)")
        } catch {
            guard case let .corruptRow(text) = error else { Issue.record("\(error)"); return }
            #expect(text.contains(detail), "\(text)")
        }
        await store.close()
    }

    /// A newer build may name an opening this one does not know (schema-free: the column is text):
    /// the row still reads, with no opening, rather than failing every read of the history.
    @Test func anOpeningANewerBuildNamedReadsAsNoReading() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        var record = F.record(F.key(1))
        record.streamOpening = .smtpStartTLS
        try await store.upsertFlow(record)
        let vandal = try SQLiteConnection(path: F.databaseURL(in: directory).path, mode: .readWriteCreate)
        try vandal.execute("UPDATE flows SET stream_opening = 'sieveStartTLS'")
        vandal.close()
        let flow = try #require(try await store.flow(matching: record.key))
        #expect(flow.streamOpening == nil)
        await store.close()
    }

    @Test(arguments: [
        ("UPDATE flows SET addr_a = x'0102030405'", "addr_a has 5 bytes"),
        ("UPDATE flows SET proto = 256", "proto 256"),
        ("UPDATE flows SET port_b = 70000", "port_b 70000"),
        ("UPDATE flows SET tls_status = 9", "tls_status 9"),
        ("UPDATE flows SET bytes_in = -1", "bytes_in -1"),
        ("UPDATE flows SET tls_version = 772, tls_cipher_suite = 4865, tls_alert = 40", "tls_alert beside"),
        ("UPDATE flows SET tls_version = 772", "without tls_cipher_suite"),
        ("UPDATE flows SET tls_offered_versions = '772', tls_offered_legacy = 771", "both tls_offered"),
        ("UPDATE flows SET tls_offered_versions = '772 tls'", "\"tls\""),
        ("UPDATE flows SET quic_version = 1", "not set together"),
        ("UPDATE flows SET tls_chain_state = 7", "tls_chain_state 7"),
        ("UPDATE flows SET tls_chain_state = 0, tls_chain = '{'", "not a certificate list"),
        ("UPDATE flows SET inspection_reason = 'pinnedHost'", "inspection_reason \"pinnedHost\""),
        ("UPDATE flows SET inspection_failure = 'why'", "inspection_failure without inspection_reason"),
        ("UPDATE flows SET tls_leaf_version = 772", "not set together"),
        ("UPDATE flows SET tls_server_ending = 9", "tls_server_ending 9"),
        ("UPDATE flows SET program_pid = 7", "program columns without program_state"),
        ("UPDATE flows SET program_state = 'guessed'", "program_state \"guessed\""),
        ("UPDATE flows SET program_state = 'program', program_pid = 7, program_uid = 0", "without its pid, command and uid"),
        ("UPDATE flows SET program_state = 'socketGone', program_pid = 7", "a program's facts beside"),
        ("UPDATE flows SET program_state = 'unavailable'", "without program_detail"),
        ("UPDATE flows SET program_state = 'notLocal', program_detail = 'x'", "program_detail beside"),
        ("UPDATE flows SET program_state = 'program', program_pid = -1, program_command = 'c', program_uid = 0", "program_pid -1"),
        ("UPDATE flows SET local_end = 2", "local_end 2 is not 0 or 1"),
        ("UPDATE flows SET proxy_host = 'a.example'", "proxy columns without proxy_protocol"),
        ("UPDATE flows SET proxy_name = 'a.example'", "proxy columns without proxy_protocol"),
        ("UPDATE flows SET proxy_protocol = 'socks6', proxy_host = 'a', proxy_port = 1", "proxy_protocol \"socks6\""),
        ("UPDATE flows SET proxy_protocol = 'socks5', proxy_port = 1080", "without proxy_host and proxy_port"),
        ("UPDATE flows SET proxy_protocol = 'socks5', proxy_host = 'a', proxy_port = 65536", "proxy_port 65536"),
        ("UPDATE flows SET sni = x'2a'", "sni is not text"),
        ("UPDATE flows SET tls_ja4 = 't13d', tls_ja3_full = '771,,,,', tls_ja3 = 'ab'", "tls_ja4 without an offer"),
        ("UPDATE flows SET tls_offered_legacy = 771, tls_ja4 = 't13d'", "not set together"),
        ("UPDATE flows SET tls_ja3s_full = '771,1,', tls_ja3s = 'ab'", "tls_ja3s without a negotiated version"),
        ("UPDATE flows SET tls_ja3s = 'ab'", "not set together"),
        ("UPDATE flows SET tls_hello_retry = 2, tls_version = 772, tls_cipher_suite = 1", "not 0 or 1"),
        ("UPDATE packets SET direction = 3", "direction 3"),
        ("UPDATE packets SET length = -5", "length -5"),
        ("UPDATE packets SET pcap_offset = 24, pcap_file = -1", "capture location"),
    ])
    func aDamagedColumnIsReportedByName(sql: String, detail: String) async throws {
        try await expectCorrupt(after: sql, containing: detail)
    }
}
