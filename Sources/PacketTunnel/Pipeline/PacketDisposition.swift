import Shared

/// What the event loop does with a datagram. The pipeline observes and decides; it never touches
/// the network.
package enum PacketDisposition: Sendable, Equatable {
    /// Relay it. Carries the parse, so the relay never parses a hot-path datagram twice.
    case passthrough(ParsedPacket)
    /// The datagram dies here; the reason is counted in `PipelineStats`.
    case dropped(DropReason)
    /// It would open a flow the full flow table cannot hold (`flowsRefusedAtCapacity`): the relay
    /// refuses it at its opening (`Relay.refuse`) — a TCP SYN hears RST, a UDP datagram is dropped —
    /// and opens no socket for it.
    case refused(ParsedPacket)

    /// The packet to hand to the relay, or nil when the datagram dies here.
    package var packetToRelay: ParsedPacket? {
        if case let .passthrough(packet) = self { return packet }
        return nil
    }
}

/// Why a datagram was dropped. Each has its own counter.
package enum DropReason: Sendable, Equatable {
    /// Not IPv4 or IPv6 the parser accepts (`packetsDroppedUnparseable`). Nothing to do: the
    /// device sent something no relay could carry.
    case parseFailed(PacketParseError)
    /// The tunnel has no address in the packet's family, or neither address is the tunnel's, so
    /// its direction is unknown (`packetsDroppedNoLocalAddress`). The pipeline never guesses.
    case noLocalAddress
}
