/// Presentation form (RFC 1035 §5.1): labels joined by `.`, the root alone written `.`. A label
/// byte outside printable ASCII (`!` to `~`), and `.` and `\`, is written `\DDD` in decimal, so
/// the text is unambiguous and a hostile label cannot forge structure. IDN labels are left as
/// sent (`xn--…`): decoding Punycode would show lookalikes as the names they imitate.
extension DNSName: CustomStringConvertible {
    package var description: String {
        if isRoot { return "." }
        var text: [UInt8] = []
        text.reserveCapacity(wire.count + 8)
        var offset = 0
        while offset < wire.count {
            let length = Int(wire[offset])
            if offset > 0 { text.append(UInt8(ascii: ".")) }
            for byte in wire[(offset + 1)..<(offset + 1 + length)] {
                if byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "."), byte != UInt8(ascii: "\\") {
                    text.append(byte)
                } else {
                    text.append(UInt8(ascii: "\\"))
                    text.append(UInt8(ascii: "0") + byte / 100)
                    text.append(UInt8(ascii: "0") + byte / 10 % 10)
                    text.append(UInt8(ascii: "0") + byte % 10)
                }
            }
            offset += 1 + length
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Reads presentation text: `.`-separated labels, one optional trailing dot, `\DDD` (decimal,
    /// at most 255) and `\X` (X literally) escapes; `""` and `"."` are the root. Nil for an empty
    /// label, a bad escape, or a label or name over its limit. Other bytes (UTF-8 too) are taken
    /// as they are.
    package init?(_ text: String) {
        let bytes = Array(text.utf8)
        if bytes.isEmpty || bytes == [UInt8(ascii: ".")] {
            self = .root
            return
        }
        var labels: [[UInt8]] = []
        var label: [UInt8] = []
        var index = 0
        var endsWithDot = false
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            endsWithDot = false
            switch byte {
            case UInt8(ascii: "."):
                guard !label.isEmpty else { return nil }
                labels.append(label)
                label = []
                endsWithDot = true
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                if let value = Self.decimalEscape(bytes, at: index) {
                    label.append(value)
                    index += 3
                } else if bytes[index] &- UInt8(ascii: "0") < 10 {
                    return nil
                } else {
                    label.append(bytes[index])
                    index += 1
                }
            default:
                label.append(byte)
            }
        }
        if !endsWithDot {
            guard !label.isEmpty else { return nil }
            labels.append(label)
        }
        guard let name = DNSName(labels: labels) else { return nil }
        self = name
    }

    /// The byte of a `DDD` escape starting at `index`, or nil if it is not three digits ≤ 255.
    private static func decimalEscape(_ bytes: [UInt8], at index: Int) -> UInt8? {
        guard index + 3 <= bytes.count else { return nil }
        var value = 0
        for digit in bytes[index..<(index + 3)] {
            guard digit &- UInt8(ascii: "0") < 10 else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value <= 255 ? UInt8(value) : nil
    }
}
