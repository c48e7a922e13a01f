extension DNSName {
    /// The name as an exact domain pattern — lowercase, no trailing dot — or nil when it is not one.
    ///
    /// The rule: at least one label, and every label made only of ASCII letters, digits, `-` and
    /// `_` (RFC 952/1123 LDH, widened by the underscore that service names such as `_dns.resolver.arpa`
    /// carry). So the root, a literal `*`, and any name whose text would need an escape (a `.` or
    /// `\` inside a label, a space, a control or non-ASCII byte) are refused: the result can be
    /// stored, compared and joined with spaces as plain text, and never reads as a wildcard.
    package var normalizedDomain: String? {
        guard !isRoot else { return nil }
        var text = [UInt8](repeating: 0, count: wire.count - 1)
        var offset = 0
        while offset < wire.count {
            let length = Int(wire[offset])
            if offset > 0 { text[offset - 1] = UInt8(ascii: ".") }
            for index in (offset + 1)..<(offset + 1 + length) {
                let byte = Self.lowercased(wire[index])
                guard byte &- UInt8(ascii: "a") < 26 || byte &- UInt8(ascii: "0") < 10
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") else { return nil }
                text[index - 1] = byte
            }
            offset += 1 + length
        }
        return String(decoding: text, as: UTF8.self)
    }
}
