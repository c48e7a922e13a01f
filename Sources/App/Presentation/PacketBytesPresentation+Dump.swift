extension PacketBytesPresentation {
    /// Bytes a screen draws of one packet; the rest is said, not drawn (cosmetic, unlike the
    /// snaplen's cut, which is permanent). `--json` carries them all.
    package static let screenByteLimit = 2048
    package static let bytesPerLine = 16

    /// The classic dump: offset (4 hex digits, more when needed), 16 bytes in hex split 8 + 8,
    /// then the same bytes as ASCII with `.` for what does not print.
    ///   `0000  45 00 00 3c 1c 46 40 00  40 06 b1 e6 0a 07 00 02  E..<.F@.@.......`
    package static func dump(_ bytes: some RandomAccessCollection<UInt8>) -> [String] {
        let all = Array(bytes)
        let offsetDigits = max(4, String(max(0, all.count - 1), radix: 16).count)
        var lines: [String] = []
        var start = 0
        while start < all.count {
            let line = all[start..<min(start + bytesPerLine, all.count)]
            var hex = ""
            for (index, byte) in line.enumerated() {
                if index > 0 { hex += index == 8 ? "  " : " " }
                hex += byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
            }
            let width = bytesPerLine * 3 - 1 + 1
            let ascii = String(line.map { (0x20...0x7E).contains($0) ? Character(UnicodeScalar($0)) : "." })
            let offset = String(start, radix: 16)
            lines.append(String(repeating: "0", count: offsetDigits - offset.count) + offset + "  "
                         + hex.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + ascii)
            start += bytesPerLine
        }
        return lines
    }
}
