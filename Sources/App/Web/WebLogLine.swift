import Foundation

/// The line the server writes to stderr for each refusal: time, peer, method, path — the query
/// left out, since a login's carries a key — status and reason. What a client sent reaches the
/// line (a Host or Origin value in the reason, the path) and may hold any UTF-8, so every part is
/// made `visible`: the line cannot be split, recoloured, cleared or reordered on a terminal.
package enum WebLogLine {
    package static func refusal(at time: Date, peer: String, method: String?, target: String?,
                               status: HTTPStatus, sentence: String) -> String {
        let path = target.map { String($0.prefix { $0 != "?" }) } ?? "-"
        let parts = [peer, method ?? "-", path, String(status.code), sentence].map(visible)
        return "\(time.formatted(.iso8601)) tunnelvision ui: " + parts.joined(separator: " ")
    }

    /// `text` with every character a terminal or an editor would act on rather than show written
    /// as `\u{XXXX}`: the C0 controls (line breaks, escape sequences), DEL, the C1 controls, and
    /// the bidirectional controls that reorder what follows them (Unicode TR 9: U+061C, U+200E,
    /// U+200F, U+202A–U+202E, U+2066–U+2069), and the line and paragraph separators editors break
    /// lines at (U+2028, U+2029). A backslash is written `\\`, so an escape in the line always
    /// means an escaped character, never text that looks like one.
    package static func visible(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            if scalar == "\\" {
                shown += "\\\\"
            } else if isHidden(scalar) {
                shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
