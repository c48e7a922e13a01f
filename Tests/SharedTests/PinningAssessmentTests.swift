import Testing
import Shared

/// The pinning check, row by row (audit.md § Pinning): the inspection outcome, read from the
/// status alone, under the session's inspection conditions.
@Suite struct PinningAssessmentTests {
    typealias F = AuditFindingsFixtures

    static let supported = InspectionConditions(inspectionEnabled: true, caTrusted: true)

    @Test("no outcome and no sign of TLS or QUIC, or cleartext HTTP seen, is not applicable, whatever the conditions")
    func notApplicable() {
        let rows = [F.flow(1, port: 80), F.flow(2, proto: .udp, port: 53), F.flow(3, status: .encrypted, opening: .httpRequest),
                    F.flow(4, status: .inspected, sni: "api.health.example", opening: .httpRequest)]
        for flow in rows {
            for conditions in [Self.supported, InspectionConditions(inspectionEnabled: false, caTrusted: false)] {
                #expect(PinningAssessment(of: flow, conditions: conditions) == .notApplicable, "flow \(flow.id)")
            }
        }
    }

    @Test("otherwise, a session recorded with inspection off is unassessed: inspection off")
    func inspectionOff() {
        for trusted in [false, true] {
            let conditions = InspectionConditions(inspectionEnabled: false, caTrusted: trusted)
            for flow in [F.flow(1, status: .encrypted), F.flow(2, status: .inspected, sni: "api.health.example")] {
                #expect(PinningAssessment(of: flow, conditions: conditions) == .notAssessed(.inspectionOff))
            }
        }
    }

    @Test("otherwise, inspection on with its CA not trusted is unassessed: CA not trusted")
    func caNotTrusted() {
        let conditions = InspectionConditions(inspectionEnabled: true, caTrusted: false)
        let flow = F.flow(1, status: .notInspectable, sni: "api.health.example")
        #expect(PinningAssessment(of: flow, conditions: conditions) == .notAssessed(.caNotTrusted))
        #expect(PinningAssessment(of: flow, conditions: conditions).outcome == .unassessed(.caNotTrusted))
    }

    @Test("an inspected flow with an announced name is pinning absent for that host, normalised")
    func absent() {
        let result = PinningAssessment(of: F.flow(1, status: .inspected, sni: "API.Health.example."), conditions: Self.supported)
        #expect(result == .absent(host: "api.health.example"))
        #expect(result.outcome == .finding(.pinningAbsent(host: "api.health.example")))
    }

    @Test("a flow that could not be inspected with an announced name is pinning observed for that host")
    func observed() {
        let result = PinningAssessment(of: F.flow(1, status: .notInspectable, sni: "api.health.example"), conditions: Self.supported)
        #expect(result == .observed(host: "api.health.example"))
        #expect(result.outcome == .finding(.pinningObserved(host: "api.health.example")))
    }

    @Test("either outcome without an announced name is unassessed, even with a name from DNS")
    func outcomeWithoutAnnouncedName() {
        for status in [TLSInspectionStatus.inspected, .notInspectable] {
            for flow in [F.flow(1, status: status), F.flow(2, status: status, dns: ResolvedFlowName(name: "api.health.example"))] {
                #expect(PinningAssessment(of: flow, conditions: Self.supported) == .notAssessed(.outcomeWithoutAnnouncedName))
            }
        }
    }

    @Test("a QUIC reading without an outcome is unassessed: QUIC is not inspected")
    func quicNotInspected() {
        let flow = F.flow(1, proto: .udp, status: .encrypted, sni: "api.health.example",
                          quic: QUICVersionReading(version: .v1, source: .server))
        #expect(PinningAssessment(of: flow, conditions: Self.supported) == .notAssessed(.quicNotInspected))
    }

    @Test("TLS over TCP without an outcome is unassessed: encrypted alone is no acceptance, a failed attempt no refusal")
    func noInspectionOutcome() {
        let rows = [F.flow(1, status: .encrypted, sni: "api.health.example"), F.flow(2, status: .inspectionFailed, sni: "a.example"),
                    F.flow(3, port: 8443, offer: F.listed(.tls13)), F.flow(4, port: 8443, opening: .tlsHandshake)]
        for flow in rows {
            #expect(PinningAssessment(of: flow, conditions: Self.supported) == .notAssessed(.noInspectionOutcome), "flow \(flow.id)")
        }
    }

    @Test("the gaps' identifiers are stable")
    func identifiers() {
        #expect(PinningGap.allCases.map(\.identifier)
            == ["inspectionOff", "caNotTrusted", "outcomeWithoutAnnouncedName", "quicNotInspected", "noInspectionOutcome"])
    }
}
