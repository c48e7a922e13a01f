import App
import Foundation
import Testing
import TestSupport
import Shared

/// A data directory with a real history and real rotated captures, holding one ended audit
/// session (and traffic outside it), as the tunnel and the app leave them.
final class EvidenceHistory: @unchecked Sendable {
    static let anchor = MonotonicAnchor(uptimeNanoseconds: 1_000_000_000_000,
                                        wallClockNanosecondsSince1970: 1_796_005_130_000_000_000)
    static let exportedAt = Date(timeIntervalSince1970: 1_796_090_000.25)
    static let device = IPEndpoint(address: TunnelAddressing.ipv4Address, port: 40_000)

    let temporary = TemporaryDirectory("tv-evidence-export")
    var dataDirectory: URL { temporary.url.appendingPathComponent("data") }
    let store: FlowStore
    let writer: PcapFileWriter
    private(set) var session: AuditSession!
    private(set) var sessionFlowIDs: [Int64] = []
    private(set) var captured = 0
    private(set) var uncaptured = 0

    init(catalogue: String? = nil, end: Bool = true) async throws {
        store = try FlowStore(dataDirectory: temporary.url.appendingPathComponent("data"), anchor: Self.anchor)
        writer = try PcapFileWriter(config: .init(directory: DataDirectoryLayout.captures(in: temporary.url.appendingPathComponent("data")),
                                                  maxFileBytes: 2_048))
        // Before the session: not its evidence, though its packets share the files.
        _ = try await record(1, port: 443, sni: "before.lab.test", at: 1, packets: 3)
        let project = try await store.createAuditProject(
            AuditProjectDraft(name: "Health app", bundleIdentifier: "org.example.health", catalogueVersion: catalogue,
                              allowlist: [AllowlistEntry(pattern: try DomainPattern(parsing: "*.lab.test"))]),
            at: Self.date(2))
        session = try await store.startAuditSession(
            AuditSessionDraft(projectID: project.id, kind: .audit(AppRelease(version: "2.4.0", build: "311")),
                              environment: AuditEnvironment(deviceModel: "QEMU Standard PC", osVersion: "Linux 6.1.0", toolVersion: "0.1.0"),
                              inspection: InspectionConditions(inspectionEnabled: false, caTrusted: false), notes: "lab"),
            at: Self.date(3))
        sessionFlowIDs.append(try await record(2, port: 80, at: 4, packets: 5))
        _ = try await store.addMarker(.consentGiven, toSession: session.id, at: Self.date(5))
        sessionFlowIDs.append(try await record(3, port: 443, sni: "api.lab.test", at: 6, packets: 12))
        sessionFlowIDs.append(try await record(4, port: 443, sni: "ads.example", at: 7, packets: 4, uncaptured: 2))
        if end {
            session = try await store.endAuditSession(id: session.id, at: Self.date(9))
        }
        try writer.close()
    }

    static func date(_ seconds: Double) -> Date {
        Date(timeIntervalSince1970: Double(anchor.wallClockNanosecondsSince1970) / 1e9 + seconds)
    }

    /// Flow `number` to port `port` at `second`, with `packets` datagrams, the first `uncaptured`
    /// of them recorded without their bytes.
    private func record(_ number: Int, port: UInt16, sni: String? = nil, at second: Double, packets: Int, uncaptured: Int = 0)
        async throws -> Int64 {
        let local = IPEndpoint(address: Self.device.address, port: UInt16(40_000 + number))
        let server = IPEndpoint(address: IPAddress(parsing: "198.18.0.\(number)")!, port: port)
        let key = FlowKey(proto: .udp, source: local, destination: server)
        let start = Self.anchor.uptimeNanoseconds + UInt64(second * 1e9)
        var record = FlowRecord(key: key, firstSeen: start, tlsStatus: port == 80 ? .plaintext : .encrypted)
        record.lastSeen = start + UInt64(packets) * 10_000_000
        record.sni = sni
        record.packetCount = UInt64(packets)
        let id = try await store.upsertFlow(record)
        var metas: [PacketMeta] = []
        for index in 0..<packets {
            let outbound = index % 2 == 0
            let bytes = try PacketEmitter.udp(source: outbound ? local : server, destination: outbound ? server : local,
                                              payload: Data((0..<(100 + 40 * index)).map { UInt8(truncatingIfNeeded: $0 + number) }))
            let uptime = start + UInt64(index) * 10_000_000
            var location: CaptureLocation?
            if index >= uncaptured {
                location = try writer.write(packet: bytes, originalLength: bytes.count, timestamp: Self.anchor.nanosecondsSince1970(forUptime: uptime))
                if number > 1 { captured += 1 }
            } else if number > 1 {
                self.uncaptured += 1
            }
            metas.append(PacketMeta(timestamp: uptime, flowKey: key, direction: outbound ? .outbound : .inbound,
                                    length: UInt32(bytes.count), tcpFlags: [], capture: location))
        }
        try writer.writeOut()
        try await store.appendPackets(metas, flowID: id)
        return id
    }

    func exporter(catalogues: RequirementCatalogueLibrary = .bundled) -> EvidenceExporter {
        EvidenceExporter(dataDirectory: dataDirectory, catalogues: catalogues)
    }

    func close() async { await store.close() }
}

/// `EvidenceExporter` (audit.md § Evidence bundle) end to end on a real history and real captures:
/// the zip's name and its seven files in a folder of that name, the manifest's digests against
/// `sha256sum`, the CSV and JSON read by Python, the capture by tshark, the same bytes for the same
/// session, and nothing left behind by a failure.
@Suite struct EvidenceExporterTests {
    static let names = ["capture.json", "capture.pcapng", "findings.json", "flows.csv", "flows.json", "manifest.json", "session.json"]

    /// The zip's files, extracted by Python's zipfile into `folder`; its entry names and modes.
    static func extract(_ archive: URL, into folder: URL) throws -> (names: [String], modes: [Int], bad: Bool) {
        let read = try #require(try PythonOracle.json("""
            import json, sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as archive:
                bad = archive.testzip()
                archive.extractall(sys.argv[2])
                print(json.dumps({"bad": bad is not None, "names": archive.namelist(),
                                  "modes": [i.external_attr >> 16 for i in archive.infolist()]}))
            """, [archive.path, folder.path]) as? [String: Any])
        return (read["names"] as? [String] ?? [], read["modes"] as? [Int] ?? [], read["bad"] as? Bool ?? true)
    }

    static func contents(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test("the zip is named after the session and the export's instant, holds a folder of its name with the seven files, and is all that is left in the destination")
    func zipAndItsFiles() async throws {
        let history = try await EvidenceHistory()
        let destination = history.temporary.url.appendingPathComponent("exports")
        let result = try await history.exporter().export(sessionID: history.session.id, to: destination, exportedAt: EvidenceHistory.exportedAt)
        let name = "tunnelvision-evidence-session-\(history.session.id)-20261201-015320"
        #expect(result.url.lastPathComponent == name + ".zip")
        #expect(try Self.contents(destination) == [name + ".zip"])
        #expect(PathStatus.of(destination.path)?.mode == 0o700 && PathStatus.of(result.url.path)?.mode == 0o600)
        #expect(result.byteCount == (try FileManager.default.attributesOfItem(atPath: result.url.path)[.size] as? NSNumber)?.uint64Value)
        #expect(result.flowCount == 3 && result.capture.written == history.captured)
        let extracted = history.temporary.url.appendingPathComponent("extracted")
        let zip = try Self.extract(result.url, into: extracted)
        #expect(!zip.bad)
        // In the order they were written, the manifest last.
        #expect(zip.names == [name + "/"] + ["session.json", "flows.json", "flows.csv", "findings.json", "capture.pcapng", "capture.json",
                                             "manifest.json"].map { name + "/" + $0 })
        #expect(zip.modes == [0o040700] + Array(repeating: 0o100600, count: 7))
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip") {
            #expect(try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/unzip"), ["-t", result.url.path]).status == 0)
        }
        await history.close()
    }

    @Test("manifest.json lists the six other files sorted, each with its size and the SHA-256 sha256sum gives")
    func manifestDigests() async throws {
        let history = try await EvidenceHistory()
        let destination = history.temporary.url.appendingPathComponent("exports")
        let result = try await history.exporter().export(sessionID: history.session.id, to: destination, exportedAt: EvidenceHistory.exportedAt)
        let extracted = history.temporary.url.appendingPathComponent("extracted")
        _ = try Self.extract(result.url, into: extracted)
        let folder = extracted.appendingPathComponent(result.url.deletingPathExtension().lastPathComponent)
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("manifest.json")))
                                    as? [String: Any])
        #expect(manifest["format"] as? String == "tunnelvision.evidence.manifest")
        let files = try #require(manifest["files"] as? [[String: Any]])
        #expect(files.map { $0["name"] as? String } == Self.names.filter { $0 != "manifest.json" })
        let sums = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), files.map { folder.appendingPathComponent($0["name"] as? String ?? "").path })
        #expect(sums.status == 0)
        let digests = sums.out.split(separator: "\n").map { String($0.prefix(64)) }
        #expect(files.map { $0["sha256"] as? String } == digests)
        for file in files {
            let size = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(file["name"] as? String ?? "").path)[.size]
            #expect((size as? NSNumber)?.intValue == file["byteCount"] as? Int)
        }
        #expect(X509Digest.lowercaseHex(result.capture.sha256) == files.first { $0["name"] as? String == "capture.pcapng" }?["sha256"] as? String)
        await history.close()
    }

    @Test("the documents read back with Python's csv and json, list only the session's flows, and the capture holds only their packets")
    func documentsAndCapture() async throws {
        let history = try await EvidenceHistory()
        let result = try await history.exporter().export(sessionID: history.session.id, to: history.temporary.url.appendingPathComponent("out"),
                                                         exportedAt: EvidenceHistory.exportedAt)
        let extracted = history.temporary.url.appendingPathComponent("extracted")
        _ = try Self.extract(result.url, into: extracted)
        let folder = extracted.appendingPathComponent(result.url.deletingPathExtension().lastPathComponent)
        for name in Self.names where name.hasSuffix(".json") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(try PythonJSON.unsortedKeysAndNulls(text) == [], "\(name)")
        }
        for name in Self.names where name != "capture.pcapng" {
            #expect(!(try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)).lowercased().contains("passed"), "\(name)")
        }
        let flows = try String(contentsOf: folder.appendingPathComponent("flows.json"), encoding: .utf8)
        #expect(try PythonJSON.value(flows, "flowCount") == "3")
        #expect(try (0..<3).map { try PythonJSON.value(flows, "flows.\($0).id") } == history.sessionFlowIDs.map { "\($0)" })
        let rows = try #require(try PythonOracle.json("""
            import csv, json, sys
            print(json.dumps(list(csv.DictReader(open(sys.argv[1], newline='', encoding='utf-8')))))
            """, [folder.appendingPathComponent("flows.csv").path]) as? [[String: String]])
        #expect(rows.map { $0["id"] } == history.sessionFlowIDs.map { "\($0)" })
        #expect(rows.map { $0["name"] } == ["", "api.lab.test", "ads.example"])
        let findings = try String(contentsOf: folder.appendingPathComponent("findings.json"), encoding: .utf8)
        #expect(try PythonJSON.value(findings, "sessionID") == "\(history.session.id)")
        #expect(try (0..<3).map { try PythonJSON.value(findings, "findings.\($0).kind") }
                == ["\"unnamedFlow\"", "\"activityBeforeConsent\"", "\"hostNotInAllowlist\""])
        let capture = folder.appendingPathComponent("capture.pcapng")
        let comments = try Tshark.fields(["frame.comment"], of: capture).compactMap { $0["frame.comment"]?.first }
        #expect(comments.count == history.captured)
        #expect(Set(comments.map { $0.split(separator: " ")[0] }) == Set(history.sessionFlowIDs.map { "flow=\($0)" }))
        let description = try String(contentsOf: folder.appendingPathComponent("capture.json"), encoding: .utf8)
        #expect(try PythonJSON.value(description, "packets.recorded") == "\(history.captured + history.uncaptured)")
        #expect(try PythonJSON.value(description, "packets.withoutBytes.notCaptured") == "\(history.uncaptured)")
        #expect(result.capture.readFiles.count >= 2)
        await history.close()
    }

    @Test("the same session exported twice at the same instant gives the same bytes")
    func sameBytes() async throws {
        let history = try await EvidenceHistory()
        let exporter = history.exporter()
        let one = try await exporter.export(sessionID: history.session.id, to: history.temporary.url.appendingPathComponent("one"),
                                            exportedAt: EvidenceHistory.exportedAt)
        let two = try await exporter.export(sessionID: history.session.id, to: history.temporary.url.appendingPathComponent("two"),
                                            exportedAt: EvidenceHistory.exportedAt)
        #expect(one.url.lastPathComponent == two.url.lastPathComponent)
        #expect(try Data(contentsOf: one.url) == Data(contentsOf: two.url))
        let later = try await exporter.export(sessionID: history.session.id, to: history.temporary.url.appendingPathComponent("one"),
                                              exportedAt: EvidenceHistory.exportedAt.addingTimeInterval(1))
        #expect(later.url.lastPathComponent != one.url.lastPathComponent)
        #expect(try Data(contentsOf: later.url) != Data(contentsOf: one.url))
        await history.close()
    }

    @Test("a refusal or a failure leaves nothing in the destination: no such session, one still recording, a catalogue this build lacks, a name taken")
    func failuresLeaveNothing() async throws {
        let open = try await EvidenceHistory(end: false)
        let destination = open.temporary.url.appendingPathComponent("exports")
        await #expect(throws: EvidenceExportError.sessionStillOpen(open.session.id)) {
            _ = try await open.exporter().export(sessionID: open.session.id, to: destination, exportedAt: EvidenceHistory.exportedAt)
        }
        await #expect(throws: EvidenceExportError.sessionNotFound(99)) {
            _ = try await open.exporter().export(sessionID: 99, to: destination, exportedAt: EvidenceHistory.exportedAt)
        }
        #expect(PathStatus.of(destination.path) == nil)
        await open.close()

        let foreign = try await EvidenceHistory(catalogue: "tr-03161-9_9.9")
        await #expect(throws: EvidenceExportError.catalogueNotBundled(identifier: "tr-03161-9_9.9")) {
            _ = try await foreign.exporter().export(sessionID: foreign.session.id, to: destination, exportedAt: EvidenceHistory.exportedAt)
        }
        await foreign.close()

        let history = try await EvidenceHistory()
        let exports = history.temporary.url.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        let taken = exports.appendingPathComponent(EvidenceBundleFormat.bundleName(sessionID: history.session.id,
                                                                                 exportedAt: EvidenceHistory.exportedAt) + ".zip")
        try Data("mine".utf8).write(to: taken)
        await #expect {
            _ = try await history.exporter().export(sessionID: history.session.id, to: exports, exportedAt: EvidenceHistory.exportedAt)
        } throws: { error in
            guard case let .writeFailed(reason) = error as? EvidenceExportError else { return false }
            return reason.contains("exists already")
        }
        #expect(try Self.contents(exports) == [taken.lastPathComponent])
        #expect(try Data(contentsOf: taken) == Data("mine".utf8))
        // A captures folder that cannot be listed: refused before anything is made.
        let elsewhere = history.temporary.url.appendingPathComponent("elsewhere")
        let exporter = EvidenceExporter(openStore: { try HistoryAccess.openStore(dataDirectory: history.dataDirectory.path) },
                                        captures: { history.temporary.url.appendingPathComponent("data/flows.txt") })
        try Data("not a folder".utf8).write(to: history.temporary.url.appendingPathComponent("data/flows.txt"))
        await #expect {
            _ = try await exporter.export(sessionID: history.session.id, to: elsewhere, exportedAt: EvidenceHistory.exportedAt)
        } throws: { error in
            guard case .captureDirectoryUnavailable = error as? EvidenceExportError else { return false }
            return true
        }
        #expect(PathStatus.of(elsewhere.path) == nil)
        await history.close()
    }

    @Test("a catalogue this build carries but cannot read is its own refusal, and leaves nothing")
    func catalogueUnusable() async throws {
        let history = try await EvidenceHistory(catalogue: "broken")
        let destination = history.temporary.url.appendingPathComponent("exports")
        let library = RequirementCatalogueLibrary(texts: ["broken": #"{"formatVersion": 1}"#])
        await #expect(throws: EvidenceExportError.catalogueUnusable(identifier: "broken")) {
            _ = try await history.exporter(catalogues: library).export(sessionID: history.session.id, to: destination,
                                                                       exportedAt: EvidenceHistory.exportedAt)
        }
        #expect(PathStatus.of(destination.path) == nil)
        await history.close()
    }

    @Test("every refusal is an English sentence", arguments: [
        EvidenceExportError.sessionNotFound(4), .sessionStillOpen(4), .catalogueNotBundled(identifier: "x"),
        .catalogueUnusable(identifier: "x"), .historyUnreadable("disk I/O error"), .historyChangedWhileExporting,
        .captureDirectoryUnavailable("permission denied"), .writeFailed("no space left on device"),
    ])
    func sentences(_ error: EvidenceExportError) {
        #expect(error.description.first?.isUppercase == true && error.description.hasSuffix("."))
        #expect(!error.description.lowercased().contains("passed"))
    }
}
