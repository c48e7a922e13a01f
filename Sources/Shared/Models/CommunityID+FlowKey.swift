extension CommunityID {
    /// A history's flow, from its key alone (computed on reading, never stored): TCP and UDP with
    /// the key's ports, any protocol the spec hashes without ports by its addresses. A key that
    /// lacks what the spec hashes has none; the spec lets a monitor report none for what it cannot
    /// compute, and a value made up here would match no other monitor's.
    package init(flow key: FlowKey, seed: UInt16 = 0) throws(Unavailable) {
        switch key.proto {
        case .tcp, .udp:
            self.init(proto: key.proto, source: key.endpointA, destination: key.endpointB, seed: seed)
        case .icmp, .icmpv6: throw .icmpTypeNotKept
        case Self.sctp: throw .sctpPortsNotKept
        case .other: throw .protocolNotKept
        default:
            self.init(proto: key.proto, source: key.endpointA.address, destination: key.endpointB.address, seed: seed)
        }
    }

    /// Why a flow key has no Community ID. The caller shows none, and may say why.
    package enum Unavailable: Error, Sendable, Hashable {
        /// ICMP or ICMPv6: the key keeps no type or code (its ports are 0), and one key holds
        /// every message between two hosts — requests, replies, errors — where the spec makes one
        /// ID per type (a one-way message's type and code included).
        case icmpTypeNotKept
        /// SCTP: nothing here reads SCTP's ports (the key's are 0), and the spec hashes them.
        case sctpPortsNotKept
        /// The protocol number itself was not kept (`IPProtocolNumber.other`).
        case protocolNotKept
    }
}
