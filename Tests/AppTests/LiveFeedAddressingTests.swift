import App
import Shared
import Testing

/// The one place a flow's two ends are split into the machine's and the remote one.
@Suite("LiveFeedAddressing: which end of a flow is this machine's")
struct LiveFeedAddressingTests {
    static let tunnel = IPEndpoint(address: TunnelAddressing.ipv4Address, port: 40_000)
    static let server = IPEndpoint(address: IPAddress(parsing: "198.18.81.2")!, port: 443)
    static let watched = IPEndpoint(address: IPAddress(parsing: "198.18.80.1")!, port: 50_000)

    static func key(_ a: IPEndpoint, _ b: IPEndpoint) -> FlowKey { FlowKey(proto: .tcp, source: a, destination: b) }

    @Test("the tunnel's own address is the local end; neither end known, or both, is no split (never a guess)")
    func byTheTunnelsAddresses() {
        let split = LiveFeedAddressing.endpoints(of: Self.key(Self.server, Self.tunnel), localAddresses: TunnelAddressing.localAddresses)
        #expect(split == FlowEndpoints(local: Self.tunnel, remote: Self.server))
        #expect(LiveFeedAddressing.endpoints(of: Self.key(Self.server, Self.watched), localAddresses: TunnelAddressing.localAddresses) == nil)
    }

    @Test("an end recorded as the machine's wins (a watched interface's flow), whichever side of the key it is")
    func byTheRecordedEnd() {
        let key = Self.key(Self.server, Self.watched)
        for end in [key.endpointA, key.endpointB] {
            let split = LiveFeedAddressing.endpoints(of: key, localEnd: end, localAddresses: TunnelAddressing.localAddresses)
            #expect(split?.local == end && split?.remote == (end == key.endpointA ? key.endpointB : key.endpointA))
        }
        #expect(LiveFeedAddressing.endpoints(of: key, localEnd: nil, localAddresses: TunnelAddressing.localAddresses) == nil)
        // An end that is not the key's is not believed: the addresses decide.
        let stray = LiveFeedAddressing.endpoints(of: Self.key(Self.server, Self.tunnel), localEnd: Self.watched,
                                                 localAddresses: TunnelAddressing.localAddresses)
        #expect(stray?.local == Self.tunnel)
    }
}
