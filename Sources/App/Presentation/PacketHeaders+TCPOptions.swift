/// The TCP options of a header, by name (RFC 9293 §3.2, RFC 7323, RFC 2018, RFC 7413): the
/// kind/length walk `TCPOptions.parse` also does, but naming every option rather than keeping two.
enum TCPOptionNames {
    static func describe(_ options: [UInt8]) -> String {
        var names: [String] = []
        var offset = 0
        func u16(_ at: Int) -> UInt16 { UInt16(options[at]) << 8 | UInt16(options[at + 1]) }
        func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) << 16 | UInt32(u16(at + 2)) }
        while offset < options.count {
            let kind = options[offset]
            if kind == 0 { names.append("end of options"); break }
            if kind == 1 { names.append("NOP"); offset += 1; continue }
            guard offset + 1 < options.count, options[offset + 1] >= 2, offset + Int(options[offset + 1]) <= options.count else {
                names.append("option \(kind) cut short")
                break
            }
            let length = Int(options[offset + 1])
            switch (kind, length) {
            case (2, 4): names.append("MSS \(u16(offset + 2))")
            case (3, 3): names.append("window scale \(options[offset + 2]) (×\(1 << min(Int(options[offset + 2]), 14)))")
            case (4, 2): names.append("SACK permitted")
            case (5, _): names.append("SACK (\((length - 2) / 8) blocks)")
            case (8, 10): names.append("timestamps \(u32(offset + 2)) echo \(u32(offset + 6))")
            case (30, _): names.append("MPTCP")
            case (34, _): names.append("TCP Fast Open cookie")
            default: names.append("option \(kind) (\(length) bytes)")
            }
            offset += length
        }
        return names.joined(separator: ", ")
    }
}
