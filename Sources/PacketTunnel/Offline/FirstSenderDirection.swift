import Shared

/// The direction rule of a capture made elsewhere: the side that sent a flow's first packet is the
/// local one (for TCP, the side that sent the SYN; a capture that begins at a SYN-ACK shows the
/// server first, so the client is its peer). Decided once per 5-tuple, at its first packet ever
/// seen, and kept for every later lifetime of it.
final class FirstSenderDirection: PacketDirectionRule {
    private var firstSenders: [FlowKey: IPEndpoint] = [:]

    init() {}

    func direction(of packet: ParsedPacket, key: FlowKey, found: FlowTable.Found?) -> (Direction, localSide: IPEndpoint?)? {
        let local = found?.localSide ?? firstSender(of: packet, key: key)
        let direction: Direction = packet.source == local ? .outbound : .inbound
        return (direction, direction == .outbound ? packet.source : packet.destination)
    }

    /// The local side (the client, as the capture tells it) of a 5-tuple seen before; nil for one
    /// never seen.
    func firstSender(of key: FlowKey) -> IPEndpoint? { firstSenders[key] }

    private func firstSender(of packet: ParsedPacket, key: FlowKey) -> IPEndpoint {
        if let local = firstSenders[key] { return local }
        let answersAnOpening = packet.tcp.map { $0.flags.contains(.syn) && $0.flags.contains(.ack) } ?? false
        let local = answersAnOpening ? packet.destination : packet.source
        firstSenders[key] = local
        return local
    }
}
