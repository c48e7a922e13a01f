import Foundation
import Testing
import Shared

/// The classifier's rules (audit.md § Findings, "Rules"): one finding per statement, in the order
/// of first flows, every flow in exactly one bucket of every check.
@Suite struct FindingsClassifierTests {
    typealias F = AuditFindingsFixtures

    static func project() throws -> AuditProject { try F.project("api.health.example") }

    static func classify(_ flows: [StoredFlow], session: AuditSession = F.session(), markers: [SessionMarker] = []) throws -> SessionFindings {
        FindingsClassifier.classify(flows: flows, project: try project(), session: session, markers: markers, policy: F.policy)
    }

    static func consent(at second: Double, session: Int64 = 5, id: Int64 = 1) -> SessionMarker {
        SessionMarker(id: id, sessionID: session, date: F.start.addingTimeInterval(second), kind: .consentGiven)
    }

    /// A session's worth of different flows: every check meets several of its rows.
    static let mixed: [StoredFlow] = [
        F.flow(1, at: 0, port: 80, sni: "tracker.example", opening: .httpRequest),
        F.flow(2, at: 1, status: .inspected, sni: "api.health.example", server: F.negotiated(.tls13, .upstreamConnection),
               offer: F.listed(.tls13, .tls12), opening: .tlsHandshake),
        F.flow(3, at: 2, status: .notInspectable, sni: "Tracker.Example.", opening: .tlsHandshake),
        F.flow(4, at: 3, proto: .udp, port: 53),
        F.flow(5, at: 4, proto: .udp, status: .encrypted, dns: ResolvedFlowName(name: "api.health.example", otherNames: ["cdn.example"]),
               quic: QUICVersionReading(version: .v1, source: .server)),
        F.flow(6, at: 5, proto: .icmp, port: 0),
        F.flow(7, at: 6, status: .encrypted, sni: "api.health.example", server: F.negotiated(.tls10, .serverHello), opening: .tlsHandshake),
        F.flow(8, at: 7, port: 80, dns: ResolvedFlowName(name: "api.health.example"), opening: .httpRequest),
        F.flow(9, at: 8, status: .encrypted, server: .refused(alert: 70), offer: F.listed(.tls13)),
    ]

    @Test("flows making the same statement share one finding, chronological; hosts are one finding per normalised name")
    func oneFindingPerStatement() throws {
        let flows = [F.flow(1, at: 0, port: 80, opening: .httpRequest), F.flow(2, at: 1, port: 8080, opening: .httpRequest),
                     F.flow(3, at: 2, sni: "Tracker.example.", opening: .tlsHandshake), F.flow(4, at: 3, dns: ResolvedFlowName(name: "tracker.example")),
                     F.flow(5, at: 4, port: 80, opening: .httpRequest)]
        let findings = try Self.classify(flows, markers: [Self.consent(at: 0)]).findings
        #expect(findings.filter { $0.kind == .cleartextTraffic }.map(\.flowIDs) == [[1, 2, 5]])
        #expect(findings.filter { $0.kind == .hostNotInAllowlist }.map(\.evidence) == [.hostNotInAllowlist(host: "tracker.example")])
        #expect(findings.filter { $0.kind == .hostNotInAllowlist }.map(\.flowIDs) == [[3, 4]])
        #expect(findings.filter { $0.kind == .unnamedFlow }.map(\.flowIDs) == [[1, 2, 5]])
        #expect(Set(findings.map(\.evidence)).count == findings.count)
    }

    @Test("findings come in the order of their first flow, whatever order the flows are given in")
    func orderOfFirstFlow() throws {
        let flows = [F.flow(10, at: 5, sni: "b.example", opening: .tlsHandshake), F.flow(11, at: 1, sni: "a.example", opening: .tlsHandshake),
                     F.flow(12, at: 3, sni: "c.example", opening: .tlsHandshake), F.flow(13, at: 1, sni: "c.example", opening: .tlsHandshake)]
        let findings = try Self.classify(flows, markers: [Self.consent(at: 0)]).findings
        // 11 and 13 share an instant: the lower id comes first.
        #expect(findings.map(\.evidence.host) == ["a.example", "c.example", "b.example"])
        #expect(findings.map(\.flowIDs) == [[11], [13, 12], [10]])
        #expect(try Self.classify(flows.reversed(), markers: [Self.consent(at: 0)]) == Self.classify(flows, markers: [Self.consent(at: 0)]))
        #expect(try Self.classify(Self.mixed.shuffled(), markers: [Self.consent(at: 4.5)])
            == Self.classify(Self.mixed, markers: [Self.consent(at: 4.5)]))
    }

    @Test("one flow's own findings come as cleartext, TLS version, destination, pinning, consent")
    func perFlowOrder() throws {
        let first = F.flow(1, at: 0, status: .inspected, sni: "tracker.example", server: F.negotiated(.tls11, .serverHello),
                           opening: .httpRequest)
        let second = F.flow(2, at: 1, status: .inspected, sni: "tracker.example", server: F.negotiated(.tls11, .serverHello))
        let findings = try Self.classify([second, first], markers: [Self.consent(at: 10)]).findings
        #expect(findings.map(\.kind) == [.cleartextTraffic, .weakTLSVersion, .hostNotInAllowlist, .activityBeforeConsent, .pinningAbsent])
        #expect(findings.map(\.flowIDs) == [[1], [1, 2], [1, 2], [1, 2], [2]])
    }

    @Test("every flow lands in exactly one bucket of every check: its findings, satisfied, unassessed or not applicable")
    func bucketsPartitionTheFlows() throws {
        for markers in [[], [Self.consent(at: 4.5)], [Self.consent(at: 2), Self.consent(at: 6, id: 2)]] {
            for session in [F.session(), F.session(kind: .baseline), F.session(inspection: false), F.session(trusted: false)] {
                let result = try Self.classify(Self.mixed, session: session, markers: markers)
                for check in AuditCheck.allCases {
                    let placed = result.findings(of: check).flatMap(\.flowIDs) + result.satisfiedFlowIDs(of: check)
                        + result.unassessedFlowIDs(of: check) + result.notApplicableFlowIDs(of: check)
                    #expect(placed.sorted() == Self.mixed.map(\.id), "\(check)")
                }
                #expect(result.pinning.satisfiedFlowIDs.isEmpty)
                #expect(result.host.notApplicableFlowIDs.isEmpty)
            }
        }
    }

    @Test("the mixed session lands where each table says")
    func mixedSession() throws {
        let result = try Self.classify(Self.mixed, markers: [Self.consent(at: 4.5)])
        #expect(result.findings.map(\.evidence) == [
            .cleartextTraffic(.http), .hostNotInAllowlist(host: "tracker.example"), .activityBeforeConsent,
            .pinningAbsent(host: "api.health.example"), .pinningObserved(host: "tracker.example"), .unnamedFlow(.noClientHelloRead),
            .weakTLSVersion(TLSVersionObservation(version: .tls10, basis: .serverHello)), .unnamedFlow(.serverNameNotAnnounced),
        ])
        #expect(result.findings.map(\.flowIDs) == [[1, 8], [1, 3], [1, 2, 3, 4, 5], [2], [3], [4, 6], [7], [9]])
        #expect(result.tlsVersion == CheckCoverage(satisfiedFlowIDs: [2, 5], unassessed: [
            UnassessedFlows(gap: .serverAnswerNotRead, flowIDs: [3]), UnassessedFlows(gap: .serverRefused, flowIDs: [9]),
        ], notApplicableFlowIDs: [1, 4, 6, 8]))
        #expect(result.encryption == CheckCoverage(satisfiedFlowIDs: [2, 3, 5, 7, 9], unassessed: [
            UnassessedFlows(gap: .datagramsNotRead, flowIDs: [4]),
        ], notApplicableFlowIDs: [6]))
        #expect(result.host == CheckCoverage(satisfiedFlowIDs: [2, 7, 8], unassessed: [
            UnassessedFlows(gap: .candidatesDisagree(attributedNameAllowed: true), flowIDs: [5]),
        ]))
        #expect(result.pinning == CheckCoverage(unassessed: [
            UnassessedFlows(gap: .quicNotInspected, flowIDs: [5]), UnassessedFlows(gap: .noInspectionOutcome, flowIDs: [7, 9]),
        ], notApplicableFlowIDs: [1, 4, 6, 8]))
        #expect(result.consent == CheckCoverage(satisfiedFlowIDs: [6, 7, 8, 9]))
    }

    @Test("only this session's consentGiven markers count: other sessions' and other kinds are ignored")
    func markersOfThisSessionOnly() throws {
        let flows = [F.flow(1, at: 0, sni: "api.health.example", opening: .tlsHandshake), F.flow(2, at: 10, sni: "api.health.example", opening: .tlsHandshake)]
        let foreign = [Self.consent(at: 5, session: 6), SessionMarker(id: 2, sessionID: 5, date: F.start.addingTimeInterval(5), kind: .loggedIn),
                       SessionMarker(id: 3, sessionID: 5, date: F.start.addingTimeInterval(5), kind: .custom("consent"))]
        let ignored = try Self.classify(flows, markers: foreign)
        #expect(ignored.consent == CheckCoverage(unassessed: [UnassessedFlows(gap: .noConsentMarker, flowIDs: [1, 2])]))
        #expect(!ignored.findings.contains { $0.kind == .activityBeforeConsent })
        let counted = try Self.classify(flows, markers: foreign + [Self.consent(at: 5, id: 4)])
        #expect(counted.findings.filter { $0.kind == .activityBeforeConsent }.map(\.flowIDs) == [[1]])
        #expect(counted.consent.satisfiedFlowIDs == [2])
    }

    @Test("a baseline is classified like any session, except that consent does not apply to it")
    func baseline() throws {
        let markers = [Self.consent(at: 4.5)]
        let audit = try Self.classify(Self.mixed, markers: markers)
        let baseline = try Self.classify(Self.mixed, session: F.session(kind: .baseline), markers: markers)
        #expect(baseline.findings == audit.findings.filter { $0.kind != .activityBeforeConsent })
        #expect(baseline.tlsVersion == audit.tlsVersion && baseline.encryption == audit.encryption)
        #expect(baseline.host == audit.host && baseline.pinning == audit.pinning)
        #expect(baseline.consent == CheckCoverage(notApplicableFlowIDs: Self.mixed.map(\.id)))
    }

    @Test("the session's inspection conditions decide whether pinning can be assessed")
    func pinningConditions() throws {
        let off = try Self.classify(Self.mixed, session: F.session(inspection: false))
        #expect(off.pinning.unassessed.map(\.gap) == [.inspectionOff])
        #expect(!off.findings.contains { $0.kind.check == .pinning })
        let untrusted = try Self.classify(Self.mixed, session: F.session(trusted: false))
        #expect(untrusted.pinning.unassessed.map(\.gap) == [.caNotTrusted])
    }

    @Test("the kinds' and checks' identifiers are stable, and each kind belongs to its check")
    func identifiers() {
        #expect(FindingKind.allCases.map(\.rawValue) == ["weakTLSVersion", "cleartextTraffic", "hostNotInAllowlist", "unnamedFlow",
                                                         "pinningAbsent", "pinningObserved", "activityBeforeConsent"])
        #expect(AuditCheck.allCases.map(\.rawValue) == ["tlsVersion", "encryption", "host", "pinning", "consent"])
        #expect(FindingKind.allCases.map(\.check.rawValue) == ["tlsVersion", "encryption", "host", "host", "pinning", "pinning", "consent"])
    }

    @Test("every finding and gap reads as one English sentence, and none says passed")
    func wording() {
        let findings: [FindingEvidence] = [
            .weakTLSVersion(TLSVersionObservation(version: .tls10, basis: .serverHello)),
            .weakTLSVersion(TLSVersionObservation(version: .tls11, basis: .upstreamConnection)), .cleartextTraffic(.http),
            .hostNotInAllowlist(host: "a.example"), .pinningAbsent(host: "a.example"), .pinningObserved(host: "a.example"),
            .activityBeforeConsent,
        ] + UnnamedFlowReason.allCases.map { .unnamedFlow($0) }
        let gaps: [String] = ClientOfferGap.allCases.map { TLSVersionGap.appNegotiationNotObserved($0).statement }
            + [TLSVersionGap.unrecognisedVersion, .serverRefused, .quicVersionOnlyProposed, .unrecognisedQUICVersion, .serverAnswerNotRead].map(\.statement)
            + EncryptionGap.allCases.map(\.statement) + PinningGap.allCases.map(\.statement) + ConsentGap.allCases.map(\.statement)
            + [HostGap.allowlistEmpty, .candidatesDisagree(attributedNameAllowed: true), .candidatesDisagree(attributedNameAllowed: false)].map(\.statement)
        #expect(Set(findings.map(\.kind)) == Set(FindingKind.allCases))
        for sentence in findings.map(\.statement) + gaps + AuditCheck.allCases.map(\.title) {
            #expect(!sentence.lowercased().contains("pass"), "\(sentence)")
        }
        for sentence in findings.map(\.statement) + gaps {
            #expect(sentence.first?.isUppercase == true && sentence.hasSuffix("."), "\(sentence)")
        }
        #expect(Finding(evidence: .activityBeforeConsent, flowIDs: []) == nil)
        #expect(Finding(evidence: .activityBeforeConsent, flowIDs: [3])?.statement == FindingEvidence.activityBeforeConsent.statement)
    }
}
