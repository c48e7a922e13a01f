import Shared

/// What a packet of a connection did, in words a person reads in the flow inspector's list
/// (screens.md, Flow Inspector): decided from what the history stored of it — its flags, its
/// length and the connection's protocol — so every row has a title, captured or not.
package enum PacketTitle: String, Sendable, Hashable, CaseIterable {
    /// SYN: the client asks to open the connection.
    case opened
    /// SYN+ACK: the server accepts.
    case accepted
    /// Carries data (PSH, or more bytes than any bare header), and every UDP or ICMP packet.
    case data
    /// A bare ACK: the receiver confirms what it got.
    case deliveryConfirmed
    /// FIN: this side has nothing more to send.
    case finishedSending
    /// RST: the connection was cut off. Outranks every other flag (RST+ACK is a cut, not an ack).
    case cutOff

    /// The largest TCP header (data offset 15 words): an ACK-only segment longer than the IP
    /// header plus this must carry data. A shorter one without PSH is read as a bare ACK — the
    /// stored row holds no payload length, and a tiny data segment without PSH is rare.
    static let largestTCPHeader = 60

    package init(flags: TCPFlags, length: UInt32, proto: IPProtocolNumber, version: IPVersion) {
        guard proto == .tcp else { self = .data; return }
        if flags.contains(.rst) { self = .cutOff; return }
        if flags.contains(.syn) { self = flags.contains(.ack) ? .accepted : .opened; return }
        if flags.contains(.fin) { self = .finishedSending; return }
        let ipHeader = version == .v4 ? 20 : 40
        if flags.contains(.psh) || Int(length) > ipHeader + Self.largestTCPHeader { self = .data; return }
        self = .deliveryConfirmed
    }

    /// How the list writes it.
    package var text: String {
        switch self {
        case .opened: "opened"
        case .accepted: "accepted"
        case .data: "data"
        case .deliveryConfirmed: "delivery confirmed"
        case .finishedSending: "finished sending"
        case .cutOff: "cut off"
        }
    }

    /// The flags' acronyms, lowest bit first as `TCPFlags.named` lists them ("SYN ACK", "RST ACK").
    package static func acronyms(_ flags: TCPFlags) -> String {
        TCPFlags.named.filter { flags.contains($0.flag) }.map { "\($0.name)" }.joined(separator: " ")
    }
}
