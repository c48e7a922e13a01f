/// A domain name as it travels, compression resolved (RFC 1035 §3.1): a sequence of labels, each a
/// length byte and 1–63 bytes, closed by the root. Bytes are kept exactly as sent — case too, since
/// resolvers randomise it (0x20 encoding) and the reply echoes it — so equality is byte equality and
/// `equalsIgnoringCase` is the DNS comparison (RFC 4343 §3: ASCII letters only).
package struct DNSName: Sendable, Hashable {
    /// Longest name in wire form, counting every length byte and the root (RFC 1035 §2.3.4).
    package static let wireLimit = 255
    /// Longest label (RFC 1035 §2.3.4): the length byte's top two bits are the label type.
    package static let labelLimit = 63

    /// The labels, each as its length byte and bytes, without the closing root byte (empty for the
    /// root). Never longer than `wireLimit - 1`.
    package let wire: [UInt8]

    /// Trusts `wire` to be well formed: only the parser, which has checked it, calls this.
    init(uncheckedWire wire: [UInt8]) {
        self.wire = wire
    }

    /// A name from its labels' bytes, or nil when a label is empty or longer than 63 bytes, or the
    /// name is longer than 255 bytes in wire form.
    package init?<Labels: Sequence>(labels: Labels) where Labels.Element: Collection, Labels.Element.Element == UInt8 {
        var wire: [UInt8] = []
        for label in labels {
            guard !label.isEmpty, label.count <= Self.labelLimit else { return nil }
            wire.append(UInt8(label.count))
            wire.append(contentsOf: label)
            guard wire.count < Self.wireLimit else { return nil }
        }
        self.wire = wire
    }

    package static let root = DNSName(uncheckedWire: [])

    package var isRoot: Bool { wire.isEmpty }

    /// Bytes the name takes uncompressed, root byte included.
    package var wireLength: Int { wire.count + 1 }

    /// Each label's bytes, leftmost first.
    package var labels: [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var offset = 0
        while offset < wire.count {
            let length = Int(wire[offset])
            result.append(wire[(offset + 1)..<(offset + 1 + length)])
            offset += 1 + length
        }
        return result
    }

    /// The same name under DNS comparison: ASCII letters match either case, other bytes exactly.
    /// Length bytes (≤ 63) sit below the letters, so the two wire forms compare byte by byte.
    package func equalsIgnoringCase(_ other: DNSName) -> Bool {
        guard wire.count == other.wire.count else { return false }
        return wire.withUnsafeBufferPointer { lhs in
            other.wire.withUnsafeBufferPointer { rhs in
                for index in 0..<lhs.count where Self.lowercased(lhs[index]) != Self.lowercased(rhs[index]) {
                    return false
                }
                return true
            }
        }
    }

    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }
}
