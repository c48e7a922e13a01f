/// The identity of a conversation: protocol plus its two endpoints, canonical so both directions
/// of a conversation share one key. The smaller endpoint (by `IPEndpoint` ordering) is A.
///
/// The key stores nothing direction-dependent; which end is the device is answered by the
/// tunnel's local addresses (`direction(ofPacketFrom:localAddress:)`).
package struct FlowKey: Sendable, Hashable, Codable {
    package let proto: IPProtocolNumber
    package let endpointA: IPEndpoint
    package let endpointB: IPEndpoint

    @inlinable
    package init(proto: IPProtocolNumber, source: IPEndpoint, destination: IPEndpoint) {
        self.proto = proto
        if source <= destination {
            endpointA = source
            endpointB = destination
        } else {
            endpointA = destination
            endpointB = source
        }
    }

    /// `.outbound` when the packet came from the device's own address, `.inbound` otherwise.
    /// `source` must be one of the key's endpoints.
    package func direction(ofPacketFrom source: IPEndpoint, localAddress: IPAddress) -> Direction {
        precondition(source == endpointA || source == endpointB, "\(source) is not an endpoint of \(self)")
        return source.address == localAddress ? .outbound : .inbound
    }
}

extension FlowKey {
    /// Five words instead of the nine fields the synthesized hash would feed one by one: every
    /// packet looks its flow up by this key. Every field goes into the seeded hash unmixed: a key
    /// folded into fewer words first (A ^ B·k) let a crafted capture give any number of flows one
    /// bucket whatever the seed, and `analyze` reads captures from anywhere.
    @inlinable
    package func hash(into hasher: inout Hasher) {
        hasher.combine(endpointA.address.high)
        hasher.combine(endpointA.address.low)
        hasher.combine(endpointB.address.high)
        hasher.combine(endpointB.address.low)
        hasher.combine(UInt64(endpointA.port) | UInt64(endpointB.port) << 16 | UInt64(proto.rawValue) << 32)
    }
}

extension FlowKey {
    /// A mix of every field that is the same in every process and run (unlike `hashValue`, which
    /// `Hasher` seeds per process): for splitting flows among workers. Not for hash tables that
    /// face untrusted keys.
    package var stableMix: UInt64 {
        var mixed = UInt64(proto.rawValue)
        func mix(_ word: UInt64) {
            mixed = (mixed ^ word) &* 0x9E37_79B9_7F4A_7C15
            mixed ^= mixed >> 29
        }
        mix(endpointA.address.high)
        mix(endpointA.address.low)
        mix(endpointB.address.high)
        mix(endpointB.address.low)
        mix(UInt64(endpointA.port) << 16 | UInt64(endpointB.port))
        return mixed
    }
}

extension FlowKey: CustomStringConvertible {
    package var description: String { "\(proto.displayName) \(endpointA) ↔ \(endpointB)" }
}
