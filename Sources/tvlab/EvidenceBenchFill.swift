import Fixtures
import Foundation
import Shared

/// The session `tvlab bench evidence` exports: `flows` connections and `packets` packets written
/// through the real store's write path (as `HistoryBenchFill` fills a history, its connections'
/// keys), every packet captured by the tunnel's own `PcapFileWriter` into files rotating at 64 MB,
/// all while one audit session records; then a consent marker is placed and the session ended.
///
/// The connections carry what the checks read: TLS 1.3, 1.2 (with its certificates) and now and
/// then 1.0; cleartext HTTP on port 80; QUIC v1 on UDP; hosts in the allowlist and some not;
/// inspected and refused ones. Payloads are pseudo-random, as encrypted traffic is, so the
/// capture compresses no better than a real one. Datagrams average about 555 bytes: 400 000 of
/// them make a capture of about 229 MB, the size audit.md measured.
struct EvidenceBenchFill {
    let flows: Int
    let packets: Int
    static let flowsPerBatch = 500

    struct Written {
        let sessionID: Int64
        let seconds: Double
        let captureBytes: UInt64
    }

    func write(into directory: URL, progress: (String) -> Void) async throws -> Written {
        let clock = Stopwatch()
        let now = MonotonicAnchor.now()
        let span: Double = 3_600
        // Uptime 1 000 s is an hour ago, when the session starts.
        let anchor = MonotonicAnchor(uptimeNanoseconds: 1_000_000_000_000,
                                     wallClockNanosecondsSince1970: now.wallClockNanosecondsSince1970 - Int64(span * 1e9))
        let store = try FlowStore(dataDirectory: directory, anchor: anchor, origin: "tvlab bench evidence")
        let project = try await store.createAuditProject(
            AuditProjectDraft(name: "Bench app", allowlist: [AllowlistEntry(pattern: try DomainPattern(parsing: "*.lab.test"))]),
            at: Self.date(anchor, 0))
        let session = try await store.startAuditSession(
            AuditSessionDraft(projectID: project.id, kind: .audit(AppRelease(version: "1.0", build: "1")),
                              environment: AuditEnvironment(deviceModel: "bench", osVersion: "Linux", toolVersion: ProductVersion.current),
                              inspection: InspectionConditions(inspectionEnabled: true, caTrusted: true)),
            at: Self.date(anchor, 0))
        let keys = HistoryBenchFill(flows: flows, packets: packets)
        let writer = try PcapFileWriter(config: .init(directory: DataDirectoryLayout.captures(in: directory)))
        var random = SeededRandom(seed: 29)
        // Pseudo-random payload bytes, sliced at varying offsets: as incompressible as TLS records.
        let noise = (0..<(1 << 22) / 8).flatMap { _ in withUnsafeBytes(of: random.next()) { Array($0) } }
        var batch = FlowStoreBatch()
        var packetsLeft = packets
        for index in 0..<flows {
            let key = keys.key(index)
            let count = index == flows - 1 ? packetsLeft : min(packetsLeft, packets * (index + 1) / flows - packets * index / flows)
            packetsLeft -= count
            let start = anchor.uptimeNanoseconds + 1_000_000_000 + UInt64(span * 0.9e9 * Double(index) / Double(flows))
            var record = FlowRecord(key: key, firstSeen: start, tlsStatus: .encrypted)
            Self.describe(&record, index: index)
            record.packetCount = UInt64(count)
            for number in 0..<count {
                let instant = start + UInt64(number) * 20_000_000
                let direction: Direction = number % 2 == 0 ? .outbound : .inbound
                let size = (number * 97 + index * 31) % 1_030
                let offset = (index * 7_919 + number * 104_729) % (noise.count - size)
                let datagram = try Self.datagram(key: key, direction: direction, payload: noise[offset..<offset + size])
                let location = try writer.write(packet: datagram, originalLength: datagram.count,
                                                timestamp: anchor.nanosecondsSince1970(forUptime: instant))
                if direction == .outbound { record.bytesOut += UInt64(datagram.count) } else { record.bytesIn += UInt64(datagram.count) }
                record.lastSeen = instant
                batch.packets.append(PacketMeta(timestamp: instant, flowKey: key, direction: direction, length: UInt32(datagram.count),
                                                tcpFlags: key.proto == .tcp ? [.ack] : [], capture: location))
            }
            if count == 0 { record.lastSeen = start }
            batch.flows.append(record)
            if batch.flows.count == Self.flowsPerBatch || index == flows - 1 {
                try writer.writeOut()
                try await store.write(batch)
                batch = FlowStoreBatch()
                if (index + 1) % 5_000 == 0 {
                    progress(String(format: "  %d connections written (%.0f s)", index + 1, clock.elapsedSeconds))
                }
            }
        }
        try writer.close()
        _ = try await store.addMarker(.consentGiven, toSession: session.id, at: Self.date(anchor, span * 0.1))
        _ = try await store.endAuditSession(id: session.id, at: Self.date(anchor, span))
        await store.close()
        let bytes = try CaptureDirectory.files(in: DataDirectoryLayout.captures(in: directory)).values.reduce(UInt64(0)) { total, url in
            total + ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.uint64Value ?? 0)
        }
        return Written(sessionID: session.id, seconds: clock.elapsedSeconds, captureBytes: bytes)
    }

    static func date(_ anchor: MonotonicAnchor, _ seconds: Double) -> Date {
        Date(timeIntervalSince1970: Double(anchor.wallClockNanosecondsSince1970) / 1e9 + seconds)
    }

    /// What connection `index` was seen to carry.
    static func describe(_ record: inout FlowRecord, index: Int) {
        let host = index % 13 == 0 ? "tracker-\(index % 50).example" : "api-\(index % 400).lab.test"
        if record.key.proto == .udp {
            record.sni = host
            record.quic = QUICVersionReading(version: .v1, source: .server)
            return
        }
        if record.key.endpointB.port == 80 || record.key.endpointA.port == 80 {
            record.tlsStatus = .plaintext
            record.streamOpening = .httpRequest
            record.resolvedName = ResolvedFlowName(name: host)
            return
        }
        record.sni = host
        record.streamOpening = .tlsHandshake
        record.clientTLS = ClientTLSOffer(versions: .listed([.tls13, .tls12]), applicationProtocols: ["h2", "http/1.1"])
        let version: TLSProtocolVersion = index % 97 == 0 ? .tls10 : index % 3 == 0 ? .tls12 : .tls13
        record.serverTLS = .negotiated(NegotiatedTLS(version: version, cipherSuite: TLSCipherSuite(rawValue: version == .tls13 ? 0x1301 : 0xC02F),
                                                     fromHelloRetryRequest: false, source: .serverHello))
        if version != .tls13 {
            record.serverCertificates = .chain(ServerCertificateChain(certificates: [
                ServerCertificate(subject: CertificateName(text: "CN=\(host)"), issuer: CertificateName(text: "CN=Bench CA"),
                                  notAfter: Date(timeIntervalSince1970: 1_900_000_000)),
            ], isComplete: true))
        }
        if index % 11 == 0 { record.tlsStatus = .notInspectable }
        if index % 17 == 0 { record.tlsStatus = .inspected }
    }

    static func datagram(key: FlowKey, direction: Direction, payload: ArraySlice<UInt8>) throws -> Data {
        let device = key.endpointA.address == TunnelAddressing.ipv4Address ? key.endpointA : key.endpointB
        let server = device == key.endpointA ? key.endpointB : key.endpointA
        let (source, destination) = direction == .outbound ? (device, server) : (server, device)
        if key.proto == .udp { return try PacketEmitter.udp(source: source, destination: destination, payload: Data(payload)) }
        return try PacketEmitter.tcp(source: source, destination: destination, sequence: 1, acknowledgment: 1, flags: [.ack],
                                     windowSize: 65_535, payload: Data(payload))
    }
}
