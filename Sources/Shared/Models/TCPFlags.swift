/// The flags of a TCP header: exactly byte 13 of the header, so it maps 1:1 (RFC 9293 §3.1).
///
/// The specs name the six classic flags; ECE and CWR (RFC 3168) are kept too because a packet that
/// carries them is evidence, and dropping bits would make the listing disagree with the wire.
public struct TCPFlags: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let fin = TCPFlags(rawValue: 1 << 0)
    public static let syn = TCPFlags(rawValue: 1 << 1)
    public static let rst = TCPFlags(rawValue: 1 << 2)
    public static let psh = TCPFlags(rawValue: 1 << 3)
    public static let ack = TCPFlags(rawValue: 1 << 4)
    public static let urg = TCPFlags(rawValue: 1 << 5)
    public static let ece = TCPFlags(rawValue: 1 << 6)
    public static let cwr = TCPFlags(rawValue: 1 << 7)

    /// The flags the relay may put on a segment it emits: the six of the specs, never ECN
    /// signalling it did not negotiate.
    public static let emittable: TCPFlags = [.fin, .syn, .rst, .psh, .ack, .urg]

    /// Every flag with its conventional name, lowest bit first.
    public static let named: [(flag: TCPFlags, name: StaticString)] = [
        (.fin, "FIN"), (.syn, "SYN"), (.rst, "RST"), (.psh, "PSH"),
        (.ack, "ACK"), (.urg, "URG"), (.ece, "ECE"), (.cwr, "CWR"),
    ]
}
