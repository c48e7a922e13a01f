import Testing
@testable import Shared

@Suite struct FlowNameTests {
    let resolved = ResolvedFlowName(name: "cdn.example.net", otherNames: ["img.example.net", "static.example.net"])

    @Test func theAnnouncedNameWinsAndDropsTheResolvedCompetitors() {
        let name = FlowName(sni: "api.example.com", resolved: resolved)
        #expect(name?.text == "api.example.com" && name?.origin == .sni && name?.otherCandidates == [])
    }

    @Test func withoutAnSNITheResolvedNameComesWithItsCompetitors() {
        for sni in [nil, ""] as [String?] {
            let name = FlowName(sni: sni, resolved: resolved)
            #expect(name?.text == "cdn.example.net" && name?.origin == .dns)
            #expect(name?.otherCandidates == ["img.example.net", "static.example.net"])
        }
    }

    @Test func aFlowWithNeitherNameIsUnnamed() {
        #expect(FlowName(sni: nil, resolved: nil) == nil)
        #expect(FlowName(sni: "", resolved: nil) == nil)
        #expect(FlowName(sni: "", resolved: ResolvedFlowName(name: "")) == nil)
    }

    @Test func aRecordIsNamedTheSameWay() {
        var record = FlowRecord(key: StoreFixtures.key(1), firstSeen: 5, tlsStatus: .encrypted)
        #expect(record.name == nil && record.lastSeen == 5 && record.id == 0 && record.packetCount == 0)
        record.resolvedName = resolved
        #expect(record.name?.origin == .dns)
        record.sni = "api.example.com"
        #expect(record.name == FlowName(sni: "api.example.com", resolved: nil))
    }
}

/// A proxy request's target names a flow between its SNI and DNS, when it is a DNS name.
@Suite struct FlowNameProxyTests {
    let resolved = ResolvedFlowName(name: "proxy.lab.example", otherNames: ["other.example"])

    static func target(_ host: String, _ proxyProtocol: ProxyProtocol = .socks5) -> ProxyTarget {
        ProxyTarget(proxyProtocol: proxyProtocol, host: host, port: 443)
    }

    @Test func theSNIInsideTheTunnelWinsOverTheTarget() {
        let name = FlowName(sni: "api.example.com", proxyTarget: Self.target("other.example.com"), resolved: resolved)
        #expect(name?.text == "api.example.com" && name?.origin == .sni)
    }

    @Test func theTargetWinsOverTheProxysOwnDNSNameAndDropsItsCompetitors() {
        let name = FlowName(sni: nil, proxyTarget: Self.target("Example.COM"), resolved: resolved)
        #expect(name?.text == "example.com" && name?.origin == .proxy && name?.otherCandidates == [])
    }

    @Test("an IP literal or a host that is no DNS name names nothing; DNS still does",
          arguments: ["198.18.0.1", "fd00::1", "bad name", "exämple.com", ""])
    func anIPLiteralNamesNothing(host: String) {
        #expect(FlowName(sni: nil, proxyTarget: Self.target(host), resolved: resolved)?.origin == .dns)
        #expect(FlowName(sni: nil, proxyTarget: Self.target(host), resolved: nil) == nil)
        #expect(Self.target(host).hostName == nil)
    }

    @Test func theSourceSaysProxyAndItsPhraseNamesTheProtocol() throws {
        let name = try #require(FlowName(sni: nil, proxyTarget: Self.target("a.example", .httpConnect), resolved: nil))
        let source = FlowNameSource(name, proto: .tcp)
        #expect(source == .proxy && source.rawValue == "proxy")
        #expect(source.phrase(proxyProtocol: .socks5) == "named in a proxy request (SOCKS5)")
        #expect(FlowNameSource.sni.phrase(proxyProtocol: .socks5) == FlowNameSource.sni.phrase)
    }

    @Test func aRecordIsNamedByItsTarget() {
        var record = FlowRecord(key: StoreFixtures.key(1), firstSeen: 5, tlsStatus: .encrypted)
        record.resolvedName = resolved
        record.proxyTarget = Self.target("a.example", .socks4a)
        #expect(record.name?.text == "a.example" && record.name?.origin == .proxy)
    }
}

/// A DNS flow's question names it after the SNI and a proxy's target, before a DNS answer for
/// its address (the resolver's own name, say).
@Suite struct DNSQueryNameTests {
    let resolverName = ResolvedFlowName(name: "ns.lab.example")

    @Test("the question names a lookup, not the resolver's name")
    func theQuestionWinsOverTheResolversName() {
        let name = FlowName(sni: nil, resolved: resolverName, dnsQuery: "www.example.test")
        #expect(name?.text == "www.example.test" && name?.origin == .dnsQuery && name?.otherCandidates == [])
        #expect(FlowNameSource(name!, proto: .udp) == .dnsQuery)
    }

    @Test("an SNI and a proxy's named target come before a question; an empty question names nothing")
    func order() {
        let target = ProxyTarget(proxyProtocol: .socks5, host: "proxied.example", port: 443)
        #expect(FlowName(sni: "api.example.com", resolved: nil, dnsQuery: "www.example.test")?.origin == .sni)
        #expect(FlowName(sni: nil, proxyTarget: target, resolved: nil, dnsQuery: "www.example.test")?.origin == .proxy)
        #expect(FlowName(sni: nil, resolved: resolverName, dnsQuery: "")?.origin == .dns)
    }
}
