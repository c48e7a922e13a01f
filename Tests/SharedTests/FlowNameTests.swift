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
