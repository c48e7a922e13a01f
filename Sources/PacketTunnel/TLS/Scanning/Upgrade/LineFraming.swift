/// Cuts a text protocol's stream into lines ended by LF (CR LF on the wire; a bare LF is taken
/// too), keeping only each line's start (`UpgradeLimits.keptLineBytes`) for the grammar to read.
/// A control byte other than HTAB and CR, or a line past `UpgradeLimits.maxLineBytes`, is no line
/// of these protocols (RFC 5321 §2.3.8, RFC 3501 §9's CHAR, RFC 1939 §3).
struct LineFraming: Sendable {
    enum Step { case more, line, malformed }

    /// The start of the line being read (after `.line`: the line just ended, CR removed).
    private(set) var kept: [UInt8] = []
    private var length = 0

    mutating func feed(_ byte: UInt8) -> Step {
        if byte == UInt8(ascii: "\n") {
            if kept.last == UInt8(ascii: "\r") { kept.removeLast() }
            length = 0
            return .line
        }
        if length == 0 { kept.removeAll(keepingCapacity: true) }
        length += 1
        guard length <= UpgradeLimits.maxLineBytes else { return .malformed }
        guard byte >= 0x20 || byte == 0x09 || byte == UInt8(ascii: "\r"), byte != 0x7F else { return .malformed }
        if kept.count < UpgradeLimits.keptLineBytes { kept.append(byte) }
        return .more
    }

    /// The kept start of the line, as upper-case words split at spaces (the commands and reply
    /// words compared are case-insensitive: RFC 5321 §2.4, RFC 3501 §9, RFC 1939 §3).
    var words: [Substring] {
        String(decoding: kept, as: UTF8.self).uppercased().split(separator: " ").map { $0 }
    }
}
