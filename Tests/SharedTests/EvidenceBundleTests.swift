import Foundation
import Testing
import Shared
import TestSupport

private typealias B = EvidenceBundleFixtures

/// The evidence bundle's four documents (audit.md § Evidence bundle) on a hand-built session:
/// every key of each, the keys left out for readings not made, sorted keys and no null anywhere
/// (read by Python), the same bytes for the same session, the refusals — and no word that a
/// requirement passed.
@Suite struct EvidenceBundleTests {
    static func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    static func keys(_ value: Any?) -> Set<String> { Set((value as? [String: Any])?.keys.map { $0 } ?? []) }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// `value` as compact JSON with sorted keys: what an object read back is compared as.
    static func json(_ value: Any?) -> String {
        guard let value, let data = try? JSONSerialization.data(withJSONObject: value,
                                                                  options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        else { return "absent" }
        return String(decoding: data, as: UTF8.self)
    }

    /// flows.json's flow of `id`.
    static func flow(_ id: Int, in flows: [String: Any]) throws -> [String: Any] {
        try #require((flows["flows"] as? [[String: Any]])?.first { $0["id"] as? Int == id })
    }

    @Test("session.json holds the project and its allowlist, the session's kind, release, environment, conditions and its own markers")
    func sessionDocument() throws {
        let bundle = try B.bundle()
        let session = try Self.object(bundle.sessionJSON)
        #expect(Self.keys(session) == ["contents", "exportedAt", "flowCount", "format", "formatVersion", "markers", "project", "session"])
        #expect(session["format"] as? String == "tunnelvision.evidence.session" && session["formatVersion"] as? Int == 1)
        #expect(session["exportedAt"] as? String == "2026-12-01T01:53:20.500000Z")
        #expect(session["flowCount"] as? Int == 7)
        let project = try #require(session["project"] as? [String: Any])
        #expect(Self.keys(project) == ["allowlist", "bundleIdentifier", "catalogue", "createdAt", "id", "name"])
        #expect(project["catalogue"] as? String == "tr-03161-1_3.0" && project["name"] as? String == "Health app")
        let allowlist = try #require(project["allowlist"] as? [[String: Any]])
        #expect(allowlist.map { $0["pattern"] as? String } == ["*.lab.test", "cdn.example"])
        #expect(allowlist.map { Self.keys($0) } == [["note", "pattern"], ["pattern"]])
        let recorded = try #require(session["session"] as? [String: Any])
        #expect(Self.keys(recorded) == ["endedAt", "environment", "id", "inspection", "kind", "notes", "release", "startedAt"])
        #expect(recorded["kind"] as? String == "audit" && recorded["notes"] as? String == "clean machine, \"fresh\" install")
        #expect(recorded["startedAt"] as? String == "2026-11-30T02:18:50.250000Z" && recorded["endedAt"] as? String == "2026-11-30T02:28:50.250000Z")
        #expect(recorded["release"] as? [String: String] == ["version": "2.4.0", "build": "311"])
        #expect(recorded["environment"] as? [String: String]
                == ["deviceModel": "QEMU Standard PC", "osVersion": "Linux 6.1.0", "toolVersion": "0.1.0"])
        #expect(recorded["inspection"] as? [String: Bool] == ["inspectionEnabled": true, "caTrusted": true, "supportsPinningEvidence": true])
        let markers = try #require(session["markers"] as? [[String: Any]])
        #expect(markers.map { $0["id"] as? Int } == [1, 2])
        #expect(markers.map { $0["kind"] as? String } == ["custom", "consentGiven"])
        #expect(markers.map { Self.keys($0) } == [["date", "id", "kind", "label"], ["date", "id", "kind"]])
        #expect(markers[0]["label"] as? String == "opened the diary")
    }

    @Test("a baseline has no release and an unnamed project no bundle identifier: the keys are left out")
    func baselineLeavesKeysOut() throws {
        var project = try B.project()
        project.bundleIdentifier = nil
        var session = B.session()
        session.kind = .baseline
        let bundle = try EvidenceBundle(project: project, session: session, markers: [], flows: [], catalogue: try B.catalogue(),
                                        exportedAt: B.exportedAt)
        let document = try Self.object(bundle.sessionJSON)
        #expect(!Self.keys(document["project"]).contains("bundleIdentifier"))
        #expect(!Self.keys(document["session"]).contains("release"))
        #expect((document["session"] as? [String: Any])?["kind"] as? String == "baseline")
        let flows = try Self.object(bundle.flowsJSON)
        #expect((flows["flows"] as? [Any])?.isEmpty == true && flows["flowCount"] as? Int == 0)
    }

    @Test("flows.json lists every flow first seen first with every reading made, and leaves out each key whose reading was not")
    func flowsDocument() throws {
        let flows = try Self.object(try B.bundle().flowsJSON)
        #expect(Self.keys(flows) == ["exportedAt", "flowCount", "flows", "format", "formatVersion", "sessionID"])
        #expect(flows["format"] as? String == "tunnelvision.evidence.flows" && flows["sessionID"] as? Int == 9)
        #expect((flows["flows"] as? [[String: Any]])?.map { $0["id"] as? Int } == [11, 12, 13, 14, 15, 16, 17])
        let always: Set<String> = ["bytesIn", "bytesOut", "durationSeconds", "findingIDs", "firstSeen", "id", "lastSeen", "packetCount",
                                   "peers", "protocol", "serverCertificate", "tlsStatus"]
        let https = try Self.flow(12, in: flows)
        #expect(https["communityID"] as? String == (try Self.communityIDOfFlow12()))
        #expect(Self.keys(https) == always.union(["clientTLS", "communityID", "dnsName", "dnsOtherNames", "name", "serverTLS", "sni",
                                                     "streamOpening"]))
        #expect(https["firstSeen"] as? String == "2026-11-30T02:19:30.250000Z" && https["lastSeen"] as? String == "2026-11-30T02:19:32.750000Z")
        #expect(https["durationSeconds"] as? Double == 2.5 && https["bytesOut"] as? Int == 517 && https["packetCount"] as? Int == 12)
        #expect(https["protocol"] as? String == "tcp" && https["tlsStatus"] as? String == "encrypted")
        #expect(https["name"] as? [String: String] == ["text": "api.lab.test", "origin": "sni"])
        #expect(https["dnsName"] as? String == "api.lab.test" && https["dnsOtherNames"] as? [String] == ["www.lab.test"])
        #expect(Self.json(https["peers"]) == #"[{"address":"10.7.0.2","port":50000},{"address":"198.51.100.7","port":443}]"#)
        #expect(https["streamOpening"] as? String == "tlsHandshake")
        let offer = try #require(https["clientTLS"] as? [String: Any])
        #expect(Self.keys(offer) == ["applicationProtocols", "encryptedClientHello", "omittedApplicationProtocols", "versions", "versionsForm"])
        #expect(offer["versionsForm"] as? String == "listed" && offer["applicationProtocols"] as? [String] == ["h2", "http/1.1"])
        #expect(Self.json(offer["versions"]) == #"[{"name":"TLS 1.3","wireValue":772},{"name":"TLS 1.2","wireValue":771}]"#)
        let negotiated = try #require((https["serverTLS"] as? [String: Any])?["negotiated"] as? [String: Any])
        #expect(Self.json(negotiated["version"]) == #"{"name":"TLS 1.2","wireValue":771}"#)
        #expect(Self.json(negotiated["cipher"]) == #"{"hex":"0xC02F","name":"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256","wireValue":49199}"#)
        #expect(negotiated["source"] as? String == "serverHello" && negotiated["fromHelloRetryRequest"] as? Bool == false)
        let certificate = try #require(https["serverCertificate"] as? [String: Any])
        #expect(certificate["visibility"] as? String == "presented" && certificate["chainIsComplete"] as? Bool == false)
        let chain = try #require(certificate["chain"] as? [[String: Any]])
        #expect(chain.map { $0["subject"] as? String } == ["CN=api.lab.test", "CN=Lab CA"])
        #expect(Self.json(chain[1]) == #"{"issuer":"CN=Lab Root, O=Lab","issuerTruncated":true,"notAfter":"2030-03-17T17:46:40.000000Z","#
                + #""subject":"CN=Lab CA","subjectTruncated":false}"#)

        let http = try Self.flow(11, in: flows)
        #expect(Self.keys(http) == always.union(["communityID", "dnsName", "dnsOtherNames", "name", "streamOpening"]))
        #expect(http["name"] as? [String: String] == ["text": "=tracker.example", "origin": "dns"])
        #expect(http["serverCertificate"] as? [String: String] == ["visibility": "noNegotiation"])

        let quic = try Self.flow(13, in: flows)
        #expect(Self.keys(quic) == always.union(["communityID", "name", "quic", "sni"]))
        #expect(quic["protocol"] as? String == "udp")
        #expect(Self.json(quic["quic"]) == #"{"source":"server","version":{"hex":"0x00000001","wireValue":1}}"#)
        #expect((quic["peers"] as? [[String: Any]])?.map { $0["address"] as? String } == ["10.7.0.2", "2001:db8::7"])

        let refused = try Self.flow(14, in: flows)
        #expect(Self.keys(refused) == always.union(["clientTLS", "communityID", "name", "serverTLS", "sni"]))
        #expect(Self.json(refused["serverTLS"]) == #"{"refused":{"alert":{"name":"protocol_version","wireValue":70}}}"#)
        let ceiling = try #require(refused["clientTLS"] as? [String: Any])
        #expect(Self.keys(ceiling) == ["applicationProtocols", "encryptedClientHello", "omittedApplicationProtocols", "upTo", "versionsForm"])
        #expect(Self.json(ceiling["upTo"]) == #"{"name":"TLS 1.0","wireValue":769}"# && ceiling["versionsForm"] as? String == "upTo")
        #expect(ceiling["encryptedClientHello"] as? Bool == true)

        let resumed = try Self.flow(15, in: flows)
        #expect(resumed["serverCertificate"] as? [String: String] == ["visibility": "notSent", "absence": "resumedSession"])
        #expect(resumed["tlsStatus"] as? String == "notInspectable")
        let unknownSuite = (resumed["serverTLS"] as? [String: Any])?["negotiated"] as? [String: Any]
        #expect(Self.json(unknownSuite?["cipher"]) == #"{"hex":"0x00FF","wireValue":255}"#)

        // ICMP's key keeps no type or code, which the Community ID hashes: it has none.
        let icmp = try Self.flow(16, in: flows)
        #expect(Self.keys(icmp) == always)
        #expect(icmp["protocol"] as? String == "icmp" && icmp["durationSeconds"] as? Double == 0)
        #expect(try Self.flow(17, in: flows)["protocol"] as? String == "other")
    }

    @Test("findings are F1, F2… in the findings' order, and each flow lists its own in that order")
    func findingIDs() throws {
        let bundle = try B.bundle()
        #expect(bundle.findings.findings.map(\.kind) == [.cleartextTraffic, .hostNotInAllowlist, .activityBeforeConsent, .weakTLSVersion,
                                                         .pinningObserved, .unnamedFlow])
        let flows = try Self.object(bundle.flowsJSON)
        let listed = (flows["flows"] as? [[String: Any]])?.map { $0["findingIDs"] as? [String] ?? ["?"] }
        #expect(listed == [["F1", "F2", "F3"], [], [], [], ["F4", "F5"], ["F6"], ["F6"]])
        #expect(bundle.findingIDs == [11: ["F1", "F2", "F3"], 12: [], 13: [], 14: [], 15: ["F4", "F5"], 16: ["F6"], 17: ["F6"]])
    }

    @Test("findings.json holds the verdicts' note, the catalogue, every requirement with its verdict and findings, the findings and all five checks")
    func findingsDocument() throws {
        let findings = try Self.object(try B.bundle().findingsJSON)
        #expect(Self.keys(findings) == ["catalogue", "checks", "exportedAt", "findings", "format", "formatVersion", "requirements", "sessionID",
                                        "verdictsNote"])
        #expect(findings["format"] as? String == "tunnelvision.evidence.findings")
        #expect(findings["verdictsNote"] as? String == EvidenceBundle.verdictsNote)
        let catalogue = try #require(findings["catalogue"] as? [String: Any])
        #expect(catalogue["identifier"] as? String == "tr-03161-1_3.0")
        #expect(Self.keys(catalogue["source"]) == ["date", "document", "title", "version"])
        #expect(Self.json((catalogue["tls"] as? [String: Any])?["minimumVersion"]) == #"{"name":"TLS 1.2","wireValue":771}"#)

        let list = try #require(findings["findings"] as? [[String: Any]])
        #expect(list.map { $0["id"] as? String } == ["F1", "F2", "F3", "F4", "F5", "F6"])
        #expect(list.map { $0["kind"] as? String } == ["cleartextTraffic", "hostNotInAllowlist", "activityBeforeConsent", "weakTLSVersion",
                                                        "pinningObserved", "unnamedFlow"])
        #expect(list.map { $0["check"] as? String } == ["encryption", "host", "consent", "tlsVersion", "pinning", "host"])
        #expect(list.map { $0["flowIDs"] as? [Int] } == [[11], [11], [11], [15], [15], [16, 17]])
        let base: Set<String> = ["check", "flowIDs", "id", "kind", "statement"]
        #expect(list.map { Self.keys($0) } == [base.union(["cleartextProtocol"]), base.union(["host"]), base,
                                               base.union(["tlsVersion", "tlsVersionBasis"]), base.union(["host"]), base.union(["unnamedReason"])])
        #expect(list[0]["cleartextProtocol"] as? String == "http" && list[1]["host"] as? String == "=tracker.example")
        #expect(Self.json(list[3]["tlsVersion"]) == #"{"name":"TLS 1.0","wireValue":769}"#)
        #expect(list[3]["tlsVersionBasis"] as? String == "serverHello" && list[4]["host"] as? String == "legacy.lab.test")
        #expect(list[5]["unnamedReason"] as? String == "noClientHelloRead")
        #expect(list[2]["statement"] as? String == FindingEvidence.activityBeforeConsent.statement)

        let requirements = try #require(findings["requirements"] as? [[String: Any]])
        let catalogueIDs = try B.catalogue().requirements.map(\.id)
        #expect(requirements.map { $0["id"] as? String } == catalogueIDs)
        func requirement(_ id: String) throws -> [String: Any] { try #require(requirements.first { $0["id"] as? String == id }) }
        let purpose8 = try requirement("O.Purp_8")
        #expect(Self.keys(purpose8) == ["check", "findingsAgainst", "findingsFor", "id", "rule", "title", "toolCoverage", "verdict",
                                        "verdictStatement"])
        #expect(purpose8["verdict"] as? String == "contradicted" && purpose8["check"] as? String == "host")
        #expect(purpose8["findingsAgainst"] as? [String] == ["F2", "F6"] && purpose8["findingsFor"] as? [String] == [])
        #expect(purpose8["verdictStatement"] as? String == RequirementVerdict.contradicted.statement)
        #expect(try requirement("O.Ntwk_2")["findingsAgainst"] as? [String] == ["F4"])
        let pinning = try requirement("O.Ntwk_4")
        #expect(pinning["verdict"] as? String == "observedWithoutContradiction" && pinning["findingsFor"] as? [String] == ["F5"])
        let outside = try requirement("O.Ntwk_3")
        #expect(Self.keys(outside) == ["findingsAgainst", "findingsFor", "id", "rule", "title", "verdict", "verdictStatement"])
        #expect(outside["verdict"] as? String == "outsideToolScope" && outside["rule"] as? String == "outsideToolScope")

        let checks = try #require(findings["checks"] as? [String: [String: Any]])
        #expect(Set(checks.keys) == Set(AuditCheck.allCases.map(\.rawValue)))
        #expect(checks.values.allSatisfy { Self.keys($0) == ["notApplicable", "satisfied", "title", "unassessed"] })
        #expect(checks["tlsVersion"]?["satisfied"] as? [Int] == [12, 13] && checks["tlsVersion"]?["notApplicable"] as? [Int] == [11, 16, 17])
        #expect(checks["encryption"]?["satisfied"] as? [Int] == [12, 13, 14, 15] && checks["encryption"]?["notApplicable"] as? [Int] == [16, 17])
        #expect(checks["host"]?["satisfied"] as? [Int] == [12, 13, 14, 15] && checks["consent"]?["satisfied"] as? [Int] == [12, 13, 14, 15, 16, 17])
        #expect(checks["pinning"]?["satisfied"] as? [Int] == [] && checks["pinning"]?["title"] as? String == AuditCheck.pinning.title)
        let pinningGaps = try #require(checks["pinning"]?["unassessed"] as? [[String: Any]])
        #expect(pinningGaps.map { $0["reason"] as? String } == ["noInspectionOutcome", "quicNotInspected"])
        #expect(pinningGaps.map { $0["flowIDs"] as? [Int] } == [[12, 14], [13]])
        #expect(pinningGaps[1]["statement"] as? String == PinningGap.quicNotInspected.statement)
        #expect((checks["tlsVersion"]?["unassessed"] as? [[String: Any]])?.map { $0["reason"] as? String } == ["serverRefused"])
    }

    @Test("a gap with a detail writes it beside its reason: what the app's offer lacked, on which side the attributed name stands")
    func gapDetails() throws {
        let at = B.start.addingTimeInterval(40)
        let upstream = ServerTLSAnswer.negotiated(NegotiatedTLS(version: .tls13, cipherSuite: TLSCipherSuite(rawValue: 0x1301),
                                                                fromHelloRetryRequest: false, source: .upstreamConnection))
        let flows = [
            StoredFlow(id: 1, key: B.key(.tcp, 443), firstSeen: at, tlsStatus: .inspected, sni: "api.lab.test", serverTLS: upstream),
            StoredFlow(id: 2, key: B.key(.tcp, 443, local: 50_001), firstSeen: at, tlsStatus: .encrypted,
                       resolvedName: ResolvedFlowName(name: "api.lab.test", otherNames: ["ads.example"])),
        ]
        let findings = try Self.object(try B.bundle(flows: flows).findingsJSON)
        let checks = try #require(findings["checks"] as? [String: [String: Any]])
        let tls = try #require((checks["tlsVersion"]?["unassessed"] as? [[String: Any]])?.first)
        #expect(tls["reason"] as? String == "appNegotiationNotObserved" && tls["clientOffer"] as? String == "offerNotRead")
        #expect(Self.keys(tls) == ["clientOffer", "flowIDs", "reason", "statement"])
        let host = try #require((checks["host"]?["unassessed"] as? [[String: Any]])?.first)
        #expect(host["reason"] as? String == "candidatesDisagree" && host["attributedNameAllowed"] as? Bool == true)
        #expect(host["flowIDs"] as? [Int] == [2])
    }

    @Test("flows.csv has a row per flow in flows.json's order with its columns, read back by Python's csv")
    func flowsCSV() throws {
        let bundle = try B.bundle()
        let file = try Self.file(bundle.flowsCSV)
        defer { try? FileManager.default.removeItem(at: file) }
        let rows = try #require(try PythonOracle.json("""
            import csv, json, sys
            print(json.dumps(list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))))
            """, [file.path]) as? [[String]])
        #expect(rows.first == EvidenceBundle.csvHeader)
        #expect(rows.count == 8 && rows.allSatisfy { $0.count == EvidenceBundle.csvHeader.count })
        func row(_ id: String) throws -> [String: String] {
            let cells = try #require(rows.first { $0.first == id })
            return Dictionary(uniqueKeysWithValues: zip(EvidenceBundle.csvHeader, cells))
        }
        #expect(try row("12") == ["id": "12", "protocol": "tcp", "firstSeen": "2026-11-30T02:19:30.250000Z",
                                   "lastSeen": "2026-11-30T02:19:32.750000Z", "durationSeconds": "2.500000", "bytesOut": "517",
                                   "bytesIn": "4096", "packetCount": "12", "peerA": "10.7.0.2:50000", "peerB": "198.51.100.7:443",
                                   "communityID": try Self.communityIDOfFlow12(), "name": "api.lab.test", "nameOrigin": "sni", "tlsStatus": "encrypted",
                                   "clientTLSVersions": "TLS 1.3;TLS 1.2", "serverTLSVersion": "TLS 1.2", "quicVersion": "", "findingIDs": ""])
        // A name that reads as a formula is defused.
        #expect(try row("11")["name"] == "'=tracker.example")
        #expect(try row("11")["findingIDs"] == "F1;F2;F3")
        #expect(try row("13")["quicVersion"] == "0x00000001" && row("13")["peerB"] == "[2001:db8::7]:443")
        #expect(try row("14")["serverTLSVersion"] == "refused: alert 70 (protocol_version)" && row("14")["clientTLSVersions"] == "up to TLS 1.0")
        #expect(try row("16")["name"] == "" && row("16")["nameOrigin"] == "" && row("16")["serverTLSVersion"] == "")
        #expect(Self.text(bundle.flowsCSV).hasSuffix("\r\n"))
    }

    /// Flow 12's Community ID as pycommunityid computes it.
    static func communityIDOfFlow12() throws -> String {
        try CommunityIDOracle.id(.init(proto: 6, source: "10.7.0.2", destination: "198.51.100.7", ports: (50000, 443)))
    }

    static func file(_ bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("evidence-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        return url
    }

    @Test("every JSON document has its keys sorted at every level and no null, as Python reads it")
    func sortedKeysNoNulls() throws {
        let bundle = try B.bundle()
        for document in [bundle.sessionJSON, bundle.flowsJSON, bundle.findingsJSON] {
            #expect(try PythonJSON.unsortedKeysAndNulls(Self.text(document)) == [])
        }
    }

    @Test("the same session gives the same bytes whatever order its flows and markers come in; another export instant changes only exportedAt")
    func deterministic() throws {
        let first = try B.bundle()
        let again = try EvidenceBundle(project: try B.project(), session: B.session(), markers: B.markers.reversed(),
                                       flows: B.flows().reversed(), catalogue: try B.catalogue(), exportedAt: B.exportedAt)
        #expect(first.documents == again.documents)
        let later = try B.bundle(exportedAt: B.exportedAt.addingTimeInterval(3_600))
        for (one, other) in zip(first.documents, later.documents) {
            let stamp = { (bytes: [UInt8]) in Self.text(bytes).replacingOccurrences(of: "2026-12-01T01:53:20.500000Z", with: "T")
                .replacingOccurrences(of: "2026-12-01T02:53:20.500000Z", with: "T") }
            #expect(stamp(one.bytes) == stamp(other.bytes))
            #expect(one.name != EvidenceBundleFormat.flowsCSVFile ? one.bytes != other.bytes : one.bytes == other.bytes)
        }
        #expect(first.documents.map(\.name) == ["session.json", "flows.json", "flows.csv", "findings.json"])
    }

    @Test("refused: a session of another project, a session still recording, a flow given twice")
    func refusals() throws {
        let project = try B.project(), catalogue = try B.catalogue()
        func refusal(session: AuditSession = B.session(), flows: [StoredFlow] = B.flows()) -> EvidenceBundleRefusal? {
            do throws(EvidenceBundleRefusal) {
                _ = try EvidenceBundle(project: project, session: session, markers: [], flows: flows, catalogue: catalogue,
                                       exportedAt: B.exportedAt)
                return nil
            } catch { return error }
        }
        #expect(refusal(session: B.session(projectID: 4)) == .sessionOfAnotherProject)
        #expect(refusal(session: B.session(ended: false)) == .sessionStillOpen)
        #expect(refusal(flows: B.flows() + [B.flows()[2]]) == .duplicateFlow(id: 13))
        #expect(refusal() == nil)
    }

    @Test("no document says that anything passed")
    func noPassed() throws {
        let bundle = try B.bundle()
        for document in bundle.documents {
            #expect(!Self.text(document.bytes).lowercased().contains("passed"), "\(document.name)")
        }
    }
}
