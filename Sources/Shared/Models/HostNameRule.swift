/// What counts as a host name where a connection announces one in the clear: TLS's `host_name`
/// (RFC 6066 §3) and a proxy request's target.
package enum HostNameRule {
    /// The host name `bytes` spell, or nil when they are not one.
    ///
    /// The rule (RFC 6066 §3 and RFC 1123 §2.1, loosened where real names are): ASCII letters,
    /// digits, hyphen and underscore (service labels such as `_dmarc` exist in the wild), labels
    /// separated by dots; every label 1…63 bytes, the whole at most 253 once one trailing dot is
    /// removed; returned lowercased. Hyphens at a label's edge are tolerated. Refused: an empty
    /// name or label, any other byte (so an IPv6 literal, a space or a UTF-8 U-label), and a name
    /// whose last label is all digits — an IPv4 literal, which RFC 6066 forbids here, or a name no
    /// top-level domain can end in (RFC 3696 §2).
    package static func hostName(from bytes: UnsafeRawBufferPointer) -> String? {
        var length = bytes.count
        if length > 0, bytes[length - 1] == UInt8(ascii: ".") { length -= 1 }
        guard (1...253).contains(length) else { return nil }
        var labelLength = 0
        var labelIsNumeric = true
        for index in 0..<length {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                guard labelLength > 0 else { return nil }
                labelLength = 0
                labelIsNumeric = true
                continue
            }
            let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            let isLetter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            guard isDigit || isLetter || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") else { return nil }
            labelLength += 1
            guard labelLength <= 63 else { return nil }
            if !isDigit { labelIsNumeric = false }
        }
        guard labelLength > 0, !labelIsNumeric else { return nil }
        return String(unsafeUninitializedCapacity: length) { buffer in
            for index in 0..<length {
                let byte = bytes[index]
                buffer[index] = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            }
            return length
        }
    }
}
