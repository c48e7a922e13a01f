import Foundation
import Testing
import Shared

/// One session's domains (audit.md § Release diff): which flows are a domain's, which only maybe,
/// which have no name, in what order, and what TLS versions they were seen to negotiate.
@Suite struct SessionDomainsTests {
    typealias F = ReleaseDiffFixtures

    @Test("an announced name makes its flows the domain's, normalised to one host")
    func announcedName() throws {
        let domains = SessionDomains(flows: [F.flow(1, sni: "API.Lab.Test."), F.flow(2, sni: "api.lab.test")])
        #expect(domains.domains.map(\.host) == ["api.lab.test"])
        let api = try #require(domains.observation(of: "Api.lab.test."))
        #expect(api.flowIDs == [1, 2] && api.candidateFlowIDs.isEmpty && api.isSeen)
    }

    @Test("a DNS name the address had alone is certain; among other names every candidate gets the flow, none for certain")
    func dnsNames() throws {
        let domains = SessionDomains(flows: [
            F.flow(1, dns: "alone.test"),
            F.flow(2, dns: "shared.test", others: ["cdn.test", "SHARED.test."]),
            // Competitors that are only the name itself again leave it alone.
            F.flow(3, dns: "alone.test", others: ["Alone.Test"]),
        ])
        #expect(domains.domains.map(\.host) == ["alone.test", "shared.test", "cdn.test"])
        #expect(domains.observation(of: "alone.test")?.flowIDs == [1, 3])
        for host in ["shared.test", "cdn.test"] {
            let observation = try #require(domains.observation(of: host))
            #expect(observation.flowIDs.isEmpty && observation.candidateFlowIDs == [2] && !observation.isSeen)
            #expect(DomainPresence(observation) == .candidateOnly)
        }
        #expect(DomainPresence(domains.observation(of: "alone.test")) == .seen)
        #expect(DomainPresence(domains.observation(of: "never.test")) == .absent)
    }

    @Test("an SNI wins over the DNS name, and an empty SNI counts as none")
    func sniWins() {
        let domains = SessionDomains(flows: [F.flow(1, sni: "said.test", dns: "resolved.test", others: ["other.test"]),
                                             F.flow(2, sni: "", dns: "resolved.test")])
        #expect(domains.domains.map(\.host) == ["said.test", "resolved.test"])
        #expect(domains.observation(of: "said.test")?.flowIDs == [1])
        #expect(domains.observation(of: "resolved.test")?.flowIDs == [2])
        #expect(domains.observation(of: "other.test") == nil)
    }

    @Test("a flow with no name is counted unnamed, never dropped")
    func unnamed() {
        let domains = SessionDomains(flows: [F.flow(4), F.flow(5, sni: "a.test"), F.flow(6, sni: ""), F.flow(7, dns: "")])
        #expect(domains.unnamedFlowIDs == [4, 6, 7])
        #expect(domains.domains.map(\.host) == ["a.test"])
    }

    @Test("domains are in the order the session first named them, by first packet then id, whatever order the flows come in")
    func order() {
        let flows = [F.flow(9, at: 1, sni: "late.test"), F.flow(3, at: 5, sni: "early.test"),
                     F.flow(2, at: 1, dns: "tie.test", others: ["tie-b.test"]), F.flow(1, at: 0, sni: "first.test"),
                     F.flow(4, at: 0.5, sni: "early.test")]
        let domains = SessionDomains(flows: flows)
        #expect(domains.domains.map(\.host) == ["first.test", "early.test", "tie.test", "tie-b.test", "late.test"])
        #expect(domains.observation(of: "early.test")?.flowIDs == [4, 3])
        #expect(SessionDomains(flows: flows.reversed()) == domains)
    }

    @Test("a flow given twice counts once")
    func duplicates() {
        let flow = F.flow(1, sni: "a.test", tls: .tls12)
        let domains = SessionDomains(flows: [flow, flow])
        #expect(domains.observation(of: "a.test")?.flowIDs == [1])
        #expect(domains.observation(of: "a.test")?.tlsSightings.count == 1)
    }

    @Test("ServerHello and a QUIC version from the server are the app's; an upstream reading the tunnel's; the rest no sighting")
    func sightings() throws {
        let domains = SessionDomains(flows: [
            F.flow(1, sni: "a.test", tls: .tls12),
            F.flow(2, sni: "a.test", tls: .tls13, source: .upstreamConnection),
            F.flow(3, sni: "a.test", quic: .v1),
            F.flow(4, sni: "a.test", quic: .v2),
            F.flow(5, sni: "a.test", refused: true),
            F.flow(6, sni: "a.test", quic: .v1, quicFrom: .client),
            F.flow(7, sni: "a.test", quic: QUICVersion(rawValue: 0xFF00_001D)),
            F.flow(8, sni: "a.test"),
            F.flow(9, sni: "a.test", tls: .tls12, source: .tunnelLeaf),
        ])
        let a = try #require(domains.observation(of: "a.test"))
        #expect(a.tlsSightings == [
            TLSVersionSighting(flowID: 1, version: .tls12, negotiator: .app),
            TLSVersionSighting(flowID: 2, version: .tls13, negotiator: .tunnel),
            TLSVersionSighting(flowID: 3, version: .tls13, negotiator: .app),
            TLSVersionSighting(flowID: 4, version: .tls13, negotiator: .app),
        ])
        #expect(a.flowIDsWithoutTLSReading == [5, 6, 7, 8, 9])
        #expect(a.versions(negotiatedBy: .app) == [.tls12, .tls13] && a.versions(negotiatedBy: .tunnel) == [.tls13])
    }

    @Test("a candidate flow's TLS version is no sighting of any candidate: it may be another's")
    func candidatesCarryNoVersion() throws {
        let domains = SessionDomains(flows: [F.flow(1, dns: "a.test", others: ["b.test"], tls: .tls10)])
        for host in ["a.test", "b.test"] {
            let observation = try #require(domains.observation(of: host))
            #expect(observation.tlsSightings.isEmpty && observation.flowIDsWithoutTLSReading.isEmpty)
        }
    }

    @Test("a negotiator's versions are a set in ascending wire value, an unpublished one included")
    func versionSet() throws {
        let draft = TLSProtocolVersion(rawValue: 0x7F1C)
        let domains = SessionDomains(flows: [F.flow(1, sni: "a.test", tls: draft), F.flow(2, sni: "a.test", tls: .tls13),
                                             F.flow(3, sni: "a.test", tls: .tls12), F.flow(4, sni: "a.test", tls: .tls13)])
        #expect(try #require(domains.observation(of: "a.test")).versions(negotiatedBy: .app) == [.tls12, .tls13, draft])
    }

    @Test("QUIC v1 and v2 carry TLS 1.3; any other QUIC version carries none known")
    func quicCarriesTLS13() {
        #expect(QUICVersion.v1.carriedTLSVersion == .tls13 && QUICVersion.v2.carriedTLSVersion == .tls13)
        #expect(QUICVersion(rawValue: 0xFF00_001D).carriedTLSVersion == nil)
        #expect(QUICVersion(rawValue: 0x1A2A_3A4A).carriedTLSVersion == nil)
    }

    @Test("the negotiator of a server answer: ServerHello the app, upstream the tunnel, the tunnel's leaf neither")
    func negotiators() {
        #expect(TLSNegotiator(.serverHello) == .app && TLSNegotiator(.upstreamConnection) == .tunnel)
        #expect(TLSNegotiator(.tunnelLeaf) == nil)
    }
}
