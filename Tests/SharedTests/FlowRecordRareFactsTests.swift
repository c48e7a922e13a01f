import Testing
import Shared

/// The facts few flows learn live behind one reference (`FlowRecordRareFacts`); a record must still
/// behave as a plain value: equal by what it knows, never by where it is kept.
@Suite struct FlowRecordRareFactsTests {
    private static func record() -> FlowRecord {
        FlowRecord(key: StoreFixtures.key(7, proto: .udp), firstSeen: 5, tlsStatus: .plaintext)
    }

    @Test func aRecordThatLearnsAndForgetsRareFactsEqualsOneThatNeverLearnedThem() {
        var record = Self.record()
        record.program = .socketGone
        record.dnsExchange = DNSExchange(question: "example.test", questionType: 1)
        #expect(record != Self.record())
        record.program = nil
        record.dnsExchange = nil
        #expect(record == Self.record())
        #expect(record.hashValue == Self.record().hashValue)
    }

    @Test func aCopyChangedKeepsTheOriginalAsItWas() {
        var original = Self.record()
        original.proxyTarget = ProxyTarget(proxyProtocol: .socks5, host: "target.example.test", port: 443)
        var copy = original
        copy.proxyTarget = nil
        copy.localEnd = IPEndpoint(address: IPAddress(ipv4: 0xC612_0001), port: 53)
        #expect(original.proxyTarget?.host == "target.example.test")
        #expect(original.localEnd == nil)
        #expect(copy.proxyTarget == nil)
        #expect(copy.localEnd?.port == 53)
    }

    @Test func recordsThatLearnedTheSameFactsSeparatelyAreEqualAndHashAlike() {
        var first = Self.record(), second = Self.record()
        first.inspectionReason = InspectionReason(.noServerName)
        first.quic = QUICVersionReading(version: .v1, source: .client)
        second.quic = QUICVersionReading(version: .v1, source: .client)
        second.inspectionReason = InspectionReason(.noServerName)
        #expect(first == second)
        #expect(Set([first, second]).count == 1)
        second.serverEnding = .closeNotify
        #expect(first != second)
    }
}
