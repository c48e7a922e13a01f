/// The flags of a TCP header: exactly byte 13 of the header, so it maps 1:1 (RFC 9293 §3.1).
///
/// The specs name the six classic flags; ECE and CWR (RFC 3168) are kept too because a packet that
/// carries them is evidence, and dropping bits would make the listing disagree with the wire.
package struct TCPFlags: OptionSet, Sendable, Hashable, Codable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let fin = TCPFlags(rawValue: 1 << 0)
    package static let syn = TCPFlags(rawValue: 1 << 1)
    package static let rst = TCPFlags(rawValue: 1 << 2)
    package static let psh = TCPFlags(rawValue: 1 << 3)
    package static let ack = TCPFlags(rawValue: 1 << 4)
    package static let urg = TCPFlags(rawValue: 1 << 5)
    package static let ece = TCPFlags(rawValue: 1 << 6)
    package static let cwr = TCPFlags(rawValue: 1 << 7)

    /// The flags the relay may put on a segment it emits: the six of the specs, never ECN
    /// signalling it did not negotiate.
    package static let emittable: TCPFlags = [.fin, .syn, .rst, .psh, .ack, .urg]

    /// Every flag with its conventional name, lowest bit first.
    package static let named: [(flag: TCPFlags, name: StaticString)] = [
        (.fin, "FIN"), (.syn, "SYN"), (.rst, "RST"), (.psh, "PSH"),
        (.ack, "ACK"), (.urg, "URG"), (.ece, "ECE"), (.cwr, "CWR"),
    ]
}
