import Testing
import Shared

/// The host check, row by row (audit.md § Host): the flow's name against the project's allowlist.
@Suite struct HostAssessmentTests {
    typealias F = AuditFindingsFixtures

    static func project() throws -> AuditProject { try F.project("api.health.example", "*.cdn.example") }

    @Test("no name and no ClientHello read is an unnamed flow")
    func noClientHelloRead() throws {
        let result = HostAssessment(of: F.flow(1), project: try Self.project())
        #expect(result == .unnamed(.noClientHelloRead))
        #expect(result.outcome == .finding(.unnamedFlow(.noClientHelloRead)))
    }

    @Test("no name and a ClientHello without a server name is an unnamed flow: the name was not announced")
    func serverNameNotAnnounced() throws {
        // An empty SNI counts as none.
        for flow in [F.flow(1, offer: F.listed(.tls13)), F.flow(2, sni: "", offer: F.listed(.tls13))] {
            #expect(HostAssessment(of: flow, project: try Self.project()) == .unnamed(.serverNameNotAnnounced))
        }
    }

    @Test("no name and no server name with Encrypted Client Hello is an unnamed flow: the hello was encrypted")
    func encryptedClientHello() throws {
        let offer = ClientTLSOffer(versions: .listed([.tls13]), hasEncryptedClientHello: true)
        #expect(HostAssessment(of: F.flow(1, offer: offer), project: try Self.project()) == .unnamed(.encryptedClientHello))
    }

    @Test("a name with an empty allowlist is unassessed: an empty allowlist denies nothing; an unnamed flow is still reported")
    func allowlistEmpty() throws {
        let empty = try F.project()
        for flow in [F.flow(1, sni: "tracker.example"), F.flow(2, dns: ResolvedFlowName(name: "tracker.example"))] {
            #expect(HostAssessment(of: flow, project: empty) == .notAssessed(.allowlistEmpty))
            #expect(HostAssessment(of: flow, project: empty).outcome == .unassessed(.allowlistEmpty))
        }
        #expect(HostAssessment(of: F.flow(3), project: empty) == .unnamed(.noClientHelloRead))
    }

    @Test("an announced name the allowlist covers is allowed, and its DNS competitors are never read")
    func sniCovered() throws {
        let flow = F.flow(1, sni: "API.health.example.", dns: ResolvedFlowName(name: "tracker.example", otherNames: ["ads.example"]))
        #expect(HostAssessment(of: flow, project: try Self.project()) == .allowed)
        #expect(HostAssessment(of: F.flow(2, sni: "eu.cdn.example"), project: try Self.project()).outcome == .satisfied)
    }

    @Test("an announced name the allowlist does not cover is not in the allowlist, under its normalised name")
    func sniNotCovered() throws {
        let flow = F.flow(1, sni: "Tracker.Example.", dns: ResolvedFlowName(name: "api.health.example"))
        #expect(HostAssessment(of: flow, project: try Self.project()) == .notInAllowlist(host: "tracker.example"))
        #expect(HostAssessment(of: F.flow(2, sni: "cdn.example"), project: try Self.project()).outcome
            == .finding(.hostNotInAllowlist(host: "cdn.example")))
    }

    @Test("a DNS name covered with every other candidate covered is allowed")
    func dnsAllCovered() throws {
        for dns in [ResolvedFlowName(name: "api.health.example"), ResolvedFlowName(name: "a.cdn.example", otherNames: ["b.cdn.example", "api.health.example"])] {
            #expect(HostAssessment(of: F.flow(1, dns: dns), project: try Self.project()) == .allowed)
        }
    }

    @Test("a DNS name with no candidate covered is not in the allowlist, under the name the flow was given")
    func dnsNoneCovered() throws {
        for dns in [ResolvedFlowName(name: "tracker.example"), ResolvedFlowName(name: "tracker.example", otherNames: ["ads.example"])] {
            #expect(HostAssessment(of: F.flow(1, dns: dns), project: try Self.project()) == .notInAllowlist(host: "tracker.example"))
        }
    }

    @Test("DNS candidates on both sides of the allowlist are unassessed; an allowed name does not clear the address")
    func candidatesDisagree() throws {
        let allowedName = ResolvedFlowName(name: "api.health.example", otherNames: ["tracker.example"])
        let deniedName = ResolvedFlowName(name: "tracker.example", otherNames: ["x.cdn.example", "ads.example"])
        #expect(HostAssessment(of: F.flow(1, dns: allowedName), project: try Self.project())
            == .notAssessed(.candidatesDisagree(attributedNameAllowed: true)))
        #expect(HostAssessment(of: F.flow(2, dns: deniedName), project: try Self.project())
            == .notAssessed(.candidatesDisagree(attributedNameAllowed: false)))
    }

    @Test("the gaps' and reasons' identifiers are stable; their sentences differ by side")
    func identifiers() {
        #expect(HostGap.allowlistEmpty.identifier == "allowlistEmpty")
        #expect(HostGap.candidatesDisagree(attributedNameAllowed: true).identifier == "candidatesDisagree")
        #expect(HostGap.candidatesDisagree(attributedNameAllowed: false).identifier == "candidatesDisagree")
        #expect(HostGap.candidatesDisagree(attributedNameAllowed: true).statement != HostGap.candidatesDisagree(attributedNameAllowed: false).statement)
        #expect(UnnamedFlowReason.allCases.map(\.rawValue) == ["noClientHelloRead", "serverNameNotAnnounced", "encryptedClientHello"])
    }
}
