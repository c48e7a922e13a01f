import Fixtures
import Foundation
import Shared

/// Each harness's seeds, with the control bytes its doc comment describes in front.
enum Seeds {
    static var all: [(String, [Data])] {
        [
            ("FuzzPacketParser", packets.map { Data([0x00]) + $0 }),
            ("FuzzDNSMessage", dnsMessages),
            ("FuzzClientHello", clientHellos),
            ("FuzzServerHello", serverHellos),
            ("FuzzServerCertificate", serverFlights),
            ("FuzzProxyTunnel", proxyTunnels),
            ("FuzzPlaintextUpgrade", plaintextUpgrades),
            ("FuzzDER", certificates.map { Data([0x40]) + $0 }),
            ("FuzzDERWriter", derWriterPrograms),
            ("FuzzQUICInitial", quicDatagrams),
            ("FuzzQUICCryptoFrames", cryptoPayloads),
            ("FuzzPcapFile", captures),
            ("FuzzSettings", settingsFiles),
            ("FuzzControlChannel", controlMessages),
            ("FuzzHTTPRequest", httpRequests),
            ("FuzzPlaintextRecord", plaintextFiles.map { Data([0x00, 0x10]) + $0 }),
            ("FuzzHTTP2", http2Connections),
        ]
    }

    /// HTTP/2 connections of RFC 7541's example header blocks (C.4's requests, C.6's responses),
    /// framed as a client and a server send them, in FuzzHTTP2's layout; and one split mid-frame.
    static var http2Connections: [Data] {
        func frame(_ type: UInt8, _ flags: UInt8, _ stream: UInt32, _ payload: [UInt8]) -> [UInt8] {
            [UInt8(payload.count >> 16), UInt8(payload.count >> 8 & 0xff), UInt8(payload.count & 0xff), type, flags,
             UInt8(stream >> 24), UInt8(stream >> 16 & 0xff), UInt8(stream >> 8 & 0xff), UInt8(stream & 0xff)] + payload
        }
        func hex(_ text: String) -> [UInt8] {
            let digits = Array(text.filter { !$0.isWhitespace })
            return stride(from: 0, to: digits.count, by: 2).compactMap { UInt8(String(digits[$0...$0 + 1]), radix: 16) }
        }
        let settings = frame(4, 0, 0, [0, 1, 0, 0, 1, 0])                                    // HEADER_TABLE_SIZE 256
        let client = settings + frame(1, 0x05, 1, hex("8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff"))
            + frame(1, 0x04, 3, hex("8286 84be 5886 a8eb 1064 9cbf")) + frame(0, 0x09, 3, [2, 0x68, 0x69, 0, 0])
            + frame(1, 0x00, 5, hex("8287 85bf 4088 25a8 49e9")) + frame(9, 0x04, 5, hex("5ba9 7d7f 8925 a849 e95b b8e8 b4bf"))
            + frame(3, 0, 5, [0, 0, 0, 8])
        let server = settings + frame(1, 0x04, 1, hex("""
            4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8
            e9ae 82ae 43d3
            """)) + frame(0, 0x01, 1, Array("hello".utf8)) + frame(5, 0x04, 1, [0, 0, 0, 2] + hex("8286 84be"))
            + frame(1, 0x04, 3, hex("4883 640e ffc1 c0bf")) + frame(7, 0, 0, [0, 0, 0, 5, 0, 0, 0, 0] + Array("bye".utf8))
        let length = [UInt8(client.count >> 8), UInt8(client.count & 0xff)]
        return [Data([0x02] + length + client + server), Data([0x00] + length + client + server.prefix(40)),
                Data([0x01] + length + client + server)]
    }

    /// `.tvpt` files as the writer lays them out: a header, records of both directions (one
    /// truncated, one empty), and the same cut short.
    static var plaintextFiles: [Data] {
        let global = Data(PlaintextFormat.GlobalHeader(maxRecordBytes: 64).bytes)
        func record(_ stream: UInt64, _ text: String, original: Int? = nil, _ direction: Direction) -> Data {
            let body = Data(text.utf8)
            let header = PlaintextFormat.RecordHeader(stream: stream, timestamp: 1_700_000_000_000_000_000,
                                                      storedLength: UInt32(body.count), originalLength: UInt32(original ?? body.count),
                                                      direction: direction)
            return Data(header.bytes) + body
        }
        let whole = global + record(1, "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n", .outbound)
            + record(1, "HTTP/1.1 200 OK\r\n\r\nhello", original: 4_000, .inbound) + record(2, "", .outbound)
        return [whole, whole.prefix(whole.count - 7), global, Data(PlaintextFormat.GlobalHeader(maxRecordBytes: 4).bytes) + whole.dropFirst(16)]
    }

    /// Synthetic datagrams of every kind, and the DNS and TLS conversations of `HandshakeTraffic`.
    static var packets: [Data] {
        var synthetic = SyntheticTraffic(seed: 11)
        var handshakes = HandshakeTraffic(seed: 11)
        return (0..<48).map { _ in synthetic.next().bytes } + (0..<48).map { _ in handshakes.next().bytes }
    }

    static var dnsMessages: [Data] {
        let fixture = DNSMessageFixture.self
        let messages: [DNSMessage] = [
            fixture.query(for: "example.com"),
            fixture.query(for: "www.example.com", type: .aaaa),
            fixture.reply(to: "example.com", answers: [fixture.a("example.com", "198.18.0.10"),
                                                        fixture.a("example.com", "198.18.0.11", ttl: 60)]),
            fixture.reply(to: "v6.example.com", type: .aaaa, answers: [fixture.aaaa("v6.example.com", "fd00::1")]),
            fixture.reply(to: "www.example.com", answers: [fixture.cname("www.example.com", "edge.cdn.example.net"),
                                                            fixture.cname("edge.cdn.example.net", "a1.cdn.example.net"),
                                                            fixture.a("a1.cdn.example.net", "198.18.7.7")]),
            fixture.reply(to: "missing.example.com", responseCode: .nameError, answers: []),
        ]
        return messages.map { Data(DNSMessageFixture.encode($0)) }
    }

    /// Control byte, caps, chunking, then the stream (`FuzzClientHello`).
    static var clientHellos: [Data] {
        let record = TLSVectors.clientHelloRecord, message = TLSVectors.clientHelloMessage
        let quic = [UInt8](QUICSealedFixtures.aioquicClientHello)
        let streams: [(UInt8, UInt8, [UInt8])] = [
            (0, 0, record),
            (0, 1, record),
            (0, 7, TLSVectors.records(message, size: 20)),
            (1, 0, message),
            (1, 9, quic),
            (0, 0, [UInt8](TLSHandshakeFixture.clientHelloRecord(serverName: "api.example.org",
                                                                 applicationProtocols: ["h2", "http/1.1"]))),
            (2, 3, record),
            (0, 0, TLSVectors.clientHello(extensions: [TLSVectors.serverName("example.net"), TLSVectors.alpn("h2")])),
        ]
        return streams.map { Data([$0.0, 0x20, $0.1] + $0.2) }
    }

    /// Chunking, then the server's stream (`FuzzServerHello`).
    static var serverHellos: [Data] {
        let streams: [[UInt8]] = [
            TLSVectors.serverHello13Record,
            TLSVectors.record(TLSVectors.serverHello12Message),
            TLSVectors.record(TLSVectors.handshake(2, TLSVectors.serverHelloBody(
                random: TLSVectors.helloRetryRequestRandom, cipherSuite: 0x1301,
                extensions: [TLSVectors.ext(43, [0x03, 0x04])]))),
            TLSVectors.handshakeFailureAlert,
            TLSVectors.records(TLSVectors.serverHello12Message, size: 7),
        ]
        return streams.map { Data([0x00]) + $0 } + [Data([0x05]) + TLSVectors.serverHello13Record]
    }

    /// Chunking, the client stream's length, then both streams (`FuzzProxyTunnel`): each kind of
    /// proxy handshake with TLS inside, whole and one byte at a time.
    static var proxyTunnels: [Data] {
        typealias P = ProxyVectors
        let tunnels: [([UInt8], [UInt8])] = [
            (P.socks5Greeting + P.socks5Connect(name: "example.com"), P.socks5MethodSelection + P.socks5Success),
            (P.socks5GreetingWithPassword + P.socks5Credentials + P.socks5Connect(address: [198, 18, 0, 1]),
             [0x05, 0x02, 0x01, 0x00] + P.socks5Success),
            (P.socks4Connect(address: [198, 18, 0, 1]), P.socks4Granted),
            (P.socks4aConnect(name: "example.com"), P.socks4Granted),
            (P.httpConnect("[fd00::1]:443"), P.httpEstablished),
        ]
        return tunnels.flatMap { request, reply -> [Data] in
            let client = request + TLSVectors.clientHelloRecord
            let streams = client + reply + TLSVectors.serverHello13Record
            return [0, 1].map { Data([$0, UInt8(client.count >> 8), UInt8(client.count & 0xff)] + streams) }
        }
    }

    /// Chunking, then turns (side, length, bytes) (`FuzzPlaintextUpgrade`): each protocol's
    /// exchange to its switch and both hellos after it, whole and one byte at a time.
    static var plaintextUpgrades: [Data] {
        UpgradeVectors.all.flatMap { exchange -> [Data] in
            let turns = exchange.turns + [UpgradeVectors.Turn(side: .client, bytes: TLSVectors.clientHelloRecord),
                                          UpgradeVectors.Turn(side: .server, bytes: TLSVectors.serverHello13Record)]
            let body = turns.flatMap { turn in [turn.side == .client ? 0 : 1, UInt8(min(turn.bytes.count, 255))] + turn.bytes.prefix(255) }
            return [0, 1].map { Data([$0] + body) }
        }
    }

    /// Control byte, caps, chunking, then the stream (`FuzzServerCertificate`): whole flights, and
    /// what follows the fixed ServerHello the harness puts in front.
    static var serverFlights: [Data] {
        let leaf = TestCertificates.der(subject: "www.example.com", issuer: "Example CA")
        let intermediate = TestCertificates.der(subject: "Example CA", issuer: "Example Root", padding: 40)
        let chain = TLSVectors.certificateMessage([leaf, intermediate])
        let flights: [(UInt8, [UInt8])] = [
            (1, [UInt8](TLSHandshakeFixture.serverFlight12(cipherSuite: 0xC02F, certificates: [Data(leaf), Data(intermediate)]))),
            (0, TLSVectors.record(chain + TLSVectors.serverHelloDone)),
            (0, TLSVectors.records(chain, size: 50)),
            (0, TLSVectors.changeCipherSpec),
            (0, TLSVectors.record(TLSVectors.handshake(12, [0x03, 0x00, 0x17]))),
            (2, TLSVectors.record(TLSVectors.certificateMessage([leaf, leaf, leaf]))),
        ]
        return flights.map { Data([$0.0, 0x11, 0x00] + $0.1) } + [Data([0x00, 0x00, 0x03] + TLSVectors.record(chain))]
    }

    static var certificates: [[UInt8]] {
        [
            TestCertificates.der(subject: "www.example.com", issuer: "Example CA"),
            TestCertificates.der(subject: "a", issuer: "b", notAfter: "20501231235959Z"),
            TestCertificates.der(subject: "padded.example", issuer: "Example CA", padding: 200),
        ]
    }

    static var quicDatagrams: [Data] {
        let sealed = QUICSealedFixtures.self
        return [QUICRFCVectors.V1.protectedPacket, QUICRFCVectors.V2.protectedPacket,
                sealed.v1PacketNumberLength1, sealed.v1PacketNumberLength4, sealed.v2PacketNumberLength2,
                sealed.v1Shortest, sealed.v1TokenAndSourceCID, sealed.v2ServerChosenCID, sealed.v1Coalesced,
                sealed.v1PacketNumber261, sealed.aioquicDatagram, sealed.splitHelloFirst + sealed.splitHelloSecond]
    }

    /// Budget bytes, then 2-byte-length-prefixed payloads (`FuzzQUICCryptoFrames`).
    static var cryptoPayloads: [Data] {
        let hello = [UInt8](QUICSealedFixtures.aioquicClientHello)
        let payloads: [[[UInt8]]] = [
            [[UInt8](QUICRFCVectors.cryptoFrame) + [UInt8](repeating: 0, count: 16)],
            [[UInt8](QUICSealedFixtures.fixtureFrames)],
            // The aioquic split of its own hello: out of order, overlapping, with a PING between.
            [crypto(150, hello[150...]) + [0x01] + crypto(0, hello[..<40]) + [0, 0, 0, 0, 0],
             crypto(30, hello[30..<160]) + [0, 0, 0]],
            [crypto(10, Array("second half".utf8)) + [0x02, 0x05, 0x00, 0x00, 0x00], crypto(0, Array("first half".utf8))],
            [[0x03, 0x01, 0x00, 0x01, 0x00, 0x02, 0x00, 0x01, 0x00, 0x00] + crypto(0, Array("ack with ecn".utf8))],
        ]
        return payloads.map { packets in
            Data([0xFF, 0xFF] + packets.flatMap { [UInt8($0.count >> 8), UInt8($0.count & 0xFF)] + $0 })
        }
    }

    /// A CRYPTO frame (RFC 9000 §19.6) with 2-byte varints.
    static func crypto(_ offset: Int, _ data: some Collection<UInt8>) -> [UInt8] {
        [0x06] + varint2(offset) + varint2(data.count) + data
    }

    static func varint2(_ value: Int) -> [UInt8] {
        [0x40 | UInt8(value >> 8), UInt8(value & 0xFF)]
    }

    /// Small captures of synthetic traffic: ours, nanosecond and byte-swapped ones of other tools,
    /// and one cut inside its last record.
    static var captures: [Data] {
        var traffic = SyntheticTraffic(seed: 5)
        let records = (0..<40).map { _ in traffic.next() }.filter { $0.bytes.count < 200 }.prefix(8).map(\.bytes)
        let ours = capture(records, magic: PcapFormat.magicMicroseconds, swapped: false)
        return [
            ours,
            capture(records, magic: PcapFormat.magicNanoseconds, swapped: false),
            capture(records, magic: PcapFormat.magicMicroseconds, swapped: true),
            capture(Array(records.prefix(2)), magic: PcapFormat.magicNanoseconds, swapped: true),
            ours.prefix(ours.count - 5),
            capture([], magic: PcapFormat.magicMicroseconds, swapped: false),
            pcapng(records, bigEndian: false),
            pcapng(records, bigEndian: true),
            pcapng(records, bigEndian: true) + pcapng(Array(records.prefix(2)), bigEndian: false),
            pcapng(records, bigEndian: false).dropLast(6),
        ]
    }

    /// A pcapng section of every block kind read: two interfaces (raw IP with a nanosecond clock,
    /// Ethernet with a binary one), a name-resolution block to skip, enhanced packets on both,
    /// then an obsolete and a simple packet block.
    static func pcapng(_ records: [Data], bigEndian: Bool) -> Data {
        func word(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian) { Array($0) } }
        func half(_ value: UInt16) -> [UInt8] { withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian) { Array($0) } }
        func block(_ type: UInt32, _ body: [UInt8]) -> [UInt8] {
            let padded = body + [UInt8](repeating: 0, count: (4 - body.count % 4) % 4)
            return word(type) + word(UInt32(padded.count + 12)) + padded + word(UInt32(padded.count + 12))
        }
        func interface(_ linkType: UInt16, resolution: UInt8) -> [UInt8] {
            block(PcapngBlock.interfaceDescription, half(linkType) + half(0) + word(0)
                  + half(PcapngBlock.optionTimestampResolution) + half(1) + [resolution, 0, 0, 0] + half(0) + half(0))
        }
        var file = block(PcapngBlock.sectionHeader, word(PcapngBlock.byteOrderMagic) + half(1) + half(0) + [UInt8](repeating: 0xFF, count: 8))
        file += interface(UInt16(PcapFormat.linkTypeRaw), resolution: 9) + interface(1, resolution: 0x80 | 20)
        file += block(4, half(0) + half(0))
        let ethernetHeader = [UInt8](repeating: 2, count: 12) + [0x08, 0x00]
        for (index, record) in records.enumerated() {
            let onEthernet = index % 2 == 1
            let data = (onEthernet ? ethernetHeader : []) + [UInt8](record)
            let seconds = UInt64(1_700_000_000 + index)
            let ticks = onEthernet ? seconds << 20 : seconds * 1_000_000_000
            file += block(PcapngBlock.enhancedPacket, word(onEthernet ? 1 : 0) + word(UInt32(ticks >> 32))
                          + word(UInt32(truncatingIfNeeded: ticks)) + word(UInt32(data.count)) + word(UInt32(data.count)) + data)
        }
        if let first = records.first {
            file += block(PcapngBlock.obsoletePacket, half(0) + half(0) + word(0) + word(5)
                          + word(UInt32(first.count)) + word(UInt32(first.count)) + [UInt8](first))
            file += block(PcapngBlock.simplePacket, word(UInt32(first.count)) + [UInt8](first))
        }
        return Data(file)
    }

    static func capture(_ records: [Data], magic: UInt32, swapped: Bool) -> Data {
        func field32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: swapped ? value.byteSwapped : value) { Array($0) } }
        func field16(_ value: UInt16) -> [UInt8] { withUnsafeBytes(of: swapped ? value.byteSwapped : value) { Array($0) } }
        var file = field32(magic) + field16(PcapFormat.versionMajor) + field16(PcapFormat.versionMinor)
        file += field32(0) + field32(0) + field32(65_535) + field32(PcapFormat.linkTypeRaw)
        for (index, record) in records.enumerated() {
            file += field32(1_700_000_000 + UInt32(index)) + field32(UInt32(index) * 1_000)
            file += field32(UInt32(record.count)) + field32(UInt32(record.count)) + record
        }
        return Data(file)
    }

    static var settingsFiles: [Data] {
        [
            SettingsStore.encode(.default),
            SettingsStore.encode(AppSettings(tlsInspectionEnabled: true, plaintextPersistenceEnabled: true,
                                             captureEnabled: false, captureDetail: .metadataOnly)),
            Data(#"{"captureDetail":"headersOnly","retention":{"maxAgeDays":"seven"},"futureField":[1,2]}"#.utf8),
            Data("[]".utf8),
        ]
    }

    static var controlMessages: [Data] {
        let commands: [ControlCommand] = [.setTLSInspectionEnabled(true), .setCaptureEnabled(false),
                                          .setCaptureDetail(.metadataOnly), .setPlaintextPersistenceEnabled(true),
                                          .rotateCapture, .stats]
        let busy = TunnelStats(
            pipeline: PipelineStats(packetsHandled: 1_234_567, bytesHandled: UInt64.max,
                                    parseDrops: ParseDropStats(tooShort: 2, unsupportedVersion: 1),
                                    captureFailures: 1, captureDisabledByFailure: true, lastCaptureError: "disk full",
                                    liveFeedDrops: 9, lastStoreError: "line one\nline two", flowsEvicted: 2,
                                    retention: RetentionStats(retentionFailures: 1, lastRetentionError: ""),
                                    dnsNames: DNSNameStats(repliesRecorded: 40, addressesLearned: 61, noAddresses: 2),
                                    quicNames: QUICNameStats(initialsSeen: 5, initialsOpened: 4, initialsUnopenable: 1)),
            relay: RelayStats(tcpFlowsOpened: 17, bytesFromDevice: 4_096,
                              inspection: InspectionStats(inspectionCandidates: 3, flowsPinned: 1)),
            resolvers: ResolverStatus(announced: ["198.18.0.53"], reportedAtStart: ["127.0.0.53"], reportedNow: nil),
            shell: ShellStats(device: ShellStats.Device(readFailures: ["EIO": 3], writeDrops: ["EAGAIN": 12]),
                              sockets: ShellStats.Sockets(connectFailures: 2, udpSendsLost: 1,
                                                          connectFailuresByErrno: ["ECONNREFUSED": 2])))
        let responses: [ControlResponse] = [.ok, .notRunning, .failed("No space left on device"), .stats(TunnelStats()),
                                            .stats(busy)]
        return commands.map { Data([0x00]) + ControlChannel.encode($0) }
            + responses.map { Data([0x01]) + ControlChannel.encode($0) }
    }

    /// What browsers and curl send the web server, and what they never should; each with its
    /// chunking and limits bytes (whole, byte at a time, random cuts; the server's and small limits).
    static var httpRequests: [Data] {
        let requests = [
            "GET /?key=0123abcd HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\n\r\n",
            "GET /api/flows?search=a+b&protocol=tcp,udp&since=2h&limit=50&after=MTIz%3D HTTP/1.1\r\nHost: localhost:8080\r\n"
                + "Cookie: a=b; tunnelvision_session=00ff\r\nX-TunnelVision: 1\r\nConnection: keep-alive\r\n\r\n",
            "POST /api/settings HTTP/1.1\r\nHost: [::1]:9\r\nOrigin: http://[::1]:9\r\nContent-Type: application/json\r\n"
                + "Content-Length: 42\r\n\r\n{\"setting\": \"captureDetail\", \"value\": \"x\"}",
            "GET /a HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/1.0\r\n\r\nHEAD / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
            "\r\n\r\nGET /%7e%2F HTTP/1.1\r\nHost: h\r\nContent-Length: 0, 0\r\n\r\n",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: h\r\n folded: x\r\nBad : y\r\n\r\n",
            "GET / HTTP/2.0\r\nHost: h\n\n",
        ]
        return requests.flatMap { text in
            [Data([0x00, 0x00]), Data([0x01, 0x00]), Data([0x07, 0x00]), Data([0x00, 0x20]), Data([0x05, 0x10])]
                .map { $0 + Data(text.utf8) }
        }
    }

    /// DERWriter programs (FuzzDERWriter's opcodes): an INTEGER, a SEQUENCE of an OID and a time,
    /// an explicit [3] around an OCTET STRING, a BIT STRING.
    static var derWriterPrograms: [Data] {
        [Data([0, 0x80, 0, 0, 0, 0, 0, 0, 1]),
         Data([9, 2, 6, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0x7F, 0, 8, 0, 0, 0, 0, 0x60, 0, 0, 0]),
         Data([10, 1, 2, 3, 0xAA, 0xBB, 0xCC, 3]),
         Data([3, 2, 0x86, 0x00, 1])]
    }
}
