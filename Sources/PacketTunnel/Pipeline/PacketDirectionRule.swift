import Shared

/// How the pipeline tells which way a packet goes in its flow (spec, "Sentido"). The live tunnel's
/// rule is its own addresses (`TunnelAddressDirection`); a capture made elsewhere, read offline,
/// brings its own (`Offline/FirstSenderDirection`). The pipeline only asks.
package protocol PacketDirectionRule: AnyObject {
    /// The packet's direction, and the side to keep as local with a flow it opens (nil: the rule
    /// keeps none); nil when the direction cannot be told — the packet is then counted as dropped
    /// and touches no flow. `found` is the packet's live flow, when it has one.
    func direction(of packet: ParsedPacket, key: FlowKey, found: FlowTable.Found?) -> (Direction, localSide: IPEndpoint?)?

    /// Whether `address` is known to be the machine's, so a flow's local side there is recorded
    /// as its end (`FlowRecord.localEnd`). Rules whose local side is the tunnel's address (told
    /// apart later by that address) or a guess (a capture's first sender) say no.
    func isMachine(_ address: IPAddress) -> Bool
}

extension PacketDirectionRule {
    package func isMachine(_ address: IPAddress) -> Bool { false }
}

/// The live tunnel's rule: outbound when the packet comes from the tunnel's address in its
/// family, inbound when it goes to it; neither, or a family with no local address, cannot be told.
package final class TunnelAddressDirection: PacketDirectionRule {
    package let localIPv4: IPAddress
    /// nil ⇒ IPv6 traffic is dropped (`.noLocalAddress`).
    package let localIPv6: IPAddress?

    package init(localIPv4: IPAddress = TunnelAddressing.ipv4Address, localIPv6: IPAddress? = TunnelAddressing.ipv6Address) {
        self.localIPv4 = localIPv4
        self.localIPv6 = localIPv6
    }

    package func direction(of packet: ParsedPacket, key: FlowKey, found: FlowTable.Found?) -> (Direction, localSide: IPEndpoint?)? {
        let local = packet.ip.version == .v4 ? localIPv4 : localIPv6
        guard let local else { return nil }
        if packet.ip.source == local { return (.outbound, nil) }
        if packet.ip.destination == local { return (.inbound, nil) }
        return nil
    }
}
