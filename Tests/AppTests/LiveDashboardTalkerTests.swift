import Foundation
import Testing
@testable import App
import Shared

/// Which name a top talker is shown by and which connection its row opens.
struct LiveDashboardTalkerTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let remote = IPAddress(parsing: "198.19.0.2")!

    static func key(_ port: UInt16) -> FlowKey {
        FlowKey(proto: .tcp, source: IPEndpoint(address: TunnelAddressing.ipv4Address, port: port),
                destination: IPEndpoint(address: remote, port: 443))
    }

    static let talker = LiveTalker(remote: remote, bytesIn: 4096, bytesOut: 100, latestFlow: key(40_002))

    @Test("unknown to the history, a talker has no name and opens nothing")
    func unknown() {
        let row = LiveDashboardTalker(Self.talker, names: LiveDashboardNames())
        #expect(row.name == nil && row.flowID == nil)
    }

    @Test("a talker whose latest connection the history named opens that connection")
    func latestNamed() {
        var names = LiveDashboardNames()
        names.record(Self.key(40_001), flowID: 7, name: "older.test", remote: Self.remote, now: Self.now)
        names.record(Self.key(40_002), flowID: 9, name: "latest.test", remote: Self.remote, now: Self.now)
        let row = LiveDashboardTalker(Self.talker, names: names)
        #expect(row.name == "latest.test" && row.flowID == 9)
    }

    @Test("a talker shown by a name another of its connections gave opens that connection, so the screen opened is the one named")
    func namedByAnother() {
        var names = LiveDashboardNames()
        names.record(Self.key(40_001), flowID: 7, name: "older.test", remote: Self.remote, now: Self.now)
        names.record(Self.key(40_002), flowID: 9, name: nil, remote: Self.remote, now: Self.now)
        let row = LiveDashboardTalker(Self.talker, names: names)
        #expect(row.name == "older.test" && row.flowID == 7)
    }

    @Test("a talker no connection named opens its latest connection once the history holds it")
    func unnamedButStored() {
        var names = LiveDashboardNames()
        names.record(Self.key(40_002), flowID: 9, name: nil, remote: Self.remote, now: Self.now)
        let row = LiveDashboardTalker(Self.talker, names: names)
        #expect(row.name == nil && row.flowID == 9)
    }

    @Test("a connection the history holds unnamed is asked again after a while; a named one never; a new session forgets all")
    func askedAgain() {
        var names = LiveDashboardNames(lookupsPerRound: 4, retryAfter: 3)
        names.record(Self.key(40_001), flowID: 7, name: "named.test", remote: Self.remote, now: Self.now)
        names.record(Self.key(40_002), flowID: nil, name: nil, remote: nil, now: Self.now)
        let keys = [Self.key(40_001), Self.key(40_002)]
        #expect(names.due(keys, now: Self.now.addingTimeInterval(2)).isEmpty)
        #expect(names.due(keys, now: Self.now.addingTimeInterval(3)) == [Self.key(40_002)])
        names.forgetAll()
        #expect(names.due(keys, now: Self.now) == keys)
        #expect(LiveDashboardTalker(Self.talker, names: names).name == nil)
    }
}
