import Shared

/// The passive target's direction rule (DESIGN.md § What is monitored, passive): a packet is
/// outbound when it comes from one of the machine's own addresses, inbound when it goes to one.
/// A flow keeps the side it opened with, so traffic between two of its own addresses (loopback)
/// reads as its first packet did. Traffic between two other machines — forwarded or bridged
/// past the interface — is told as a capture made elsewhere is (`FirstSenderDirection`: the
/// side that opened it is "local"), and `isLocal` says it is not the machine's own, so no
/// program is asked for it.
///
/// Its addresses are the owner's to keep current (they change with the network); loop thread only.
package final class LocalAddressDirection: PacketDirectionRule {
    package var addresses: Set<IPAddress>
    private let elsewhere = FirstSenderDirection()

    package init(addresses: Set<IPAddress>) {
        self.addresses = addresses
    }

    package func isLocal(_ address: IPAddress) -> Bool { addresses.contains(address) }

    package func isMachine(_ address: IPAddress) -> Bool { isLocal(address) }

    /// Whether a packet seen on the watched interfaces is recorded: watching every interface, a
    /// forwarded packet is seen coming in and again going out, and is kept once, as it came in —
    /// what this machine sends itself is seen only going out, and kept. A header too short to name
    /// its source is kept (the parser counts it).
    package func keeps(_ packet: UnsafeRawBufferPointer, outgoing: Bool, onEveryInterface: Bool) -> Bool {
        guard onEveryInterface && outgoing, let first = packet.first, let base = packet.baseAddress else { return true }
        switch first >> 4 {
        case 4 where packet.count >= 20: return isLocal(IPAddress.load(.v4, from: base + 12))
        case 6 where packet.count >= 40: return isLocal(IPAddress.load(.v6, from: base + 8))
        default: return true
        }
    }

    package func direction(of packet: ParsedPacket, key: FlowKey, found: FlowTable.Found?) -> (Direction, localSide: IPEndpoint?)? {
        if let local = found?.localSide {
            return (packet.source == local ? .outbound : .inbound, local)
        }
        let fromHere = isLocal(packet.ip.source), toHere = isLocal(packet.ip.destination)
        if fromHere && toHere {
            // Both ends are the machine's: the side that opens it (a SYN-ACK answers an opening).
            return elsewhere.direction(of: packet, key: key, found: nil)
        }
        if fromHere { return (.outbound, packet.source) }
        if toHere { return (.inbound, packet.destination) }
        return elsewhere.direction(of: packet, key: key, found: nil)
    }
}
