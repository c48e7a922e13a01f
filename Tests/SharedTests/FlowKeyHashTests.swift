import Testing
@testable import Shared

@Suite("A flow key's hash")
struct FlowKeyHashTests {
    /// IPv4 flows an attacker writes into a capture so that A ^ B·k is zero for every one: a hash
    /// of that mix put them all in one bucket, whatever the seed, and each lookup then walked them
    /// all. Each of the key's fields must reach the seeded hash as it is.
    @Test("Flows crafted to share a mix of their two ends still hash apart")
    func craftedFlowsHashApart() {
        let spread: UInt64 = 0x9E37_79B9_7F4A_7C15
        var keys: [FlowKey] = []
        var mixedApart = 0
        for value in UInt32(0xF000_0000)..<0xF000_0800 {
            let b = UInt64(value) << 32
            let a = UInt32(truncatingIfNeeded: (b &* spread) >> 32)
            guard a < value else { continue }           // A is the lower end, as the key orders them
            let key = FlowKey(proto: .tcp, source: IPEndpoint(address: IPAddress(ipv4: a), port: 40000),
                              destination: IPEndpoint(address: IPAddress(ipv4: value), port: 443))
            if key.endpointA.address.high ^ (key.endpointB.address.high &* spread) != 0 { mixedApart += 1 }
            keys.append(key)
        }
        #expect(keys.count > 1_000 && mixedApart == 0)
        #expect(Set(keys.map(\.hashValue)).count == keys.count)
    }

    @Test("Both directions of a conversation hash alike, and a changed field hashes apart")
    func directionsAlikeFieldsApart() {
        let client = IPEndpoint(address: IPAddress(ipv6High: 0xFD00_0000_0000_0001, low: 2), port: 50000)
        let server = IPEndpoint(address: IPAddress(ipv6High: 0xFD00_0000_0000_0001, low: 3), port: 443)
        let key = FlowKey(proto: .udp, source: client, destination: server)
        #expect(key.hashValue == FlowKey(proto: .udp, source: server, destination: client).hashValue)
        let others = [
            FlowKey(proto: .tcp, source: client, destination: server),
            FlowKey(proto: .udp, source: IPEndpoint(address: client.address, port: 50001), destination: server),
            FlowKey(proto: .udp, source: client, destination: IPEndpoint(address: IPAddress(ipv6High: 0xFD00_0000_0000_0002, low: 3), port: 443)),
        ]
        for other in others { #expect(other.hashValue != key.hashValue) }
    }
}
