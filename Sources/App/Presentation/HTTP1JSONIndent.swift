import Foundation

/// JSON re-indented as sent: the document is first checked by `JSONSerialization`, then its
/// tokens are laid out two spaces a level, in the server's own key order and with its numbers
/// spelled as it spelled them — `JSONSerialization`'s own pretty-printing would sort or shuffle
/// keys (a dictionary) and respell numbers (`1.0` → `1`). Strings are copied byte for byte.
enum HTTP1JSONIndent {
    /// Nil when the bytes are not one JSON document.
    static func indented(_ bytes: Data) -> String? {
        guard (try? JSONSerialization.jsonObject(with: bytes, options: [.fragmentsAllowed])) != nil,
              let text = String(validating: [UInt8](bytes), as: UTF8.self) else { return nil }
        var out = String.UnicodeScalarView()
        var depth = 0
        var inString = false, escaped = false
        var pendingOpen = false   // an opening bracket whose newline waits: `{}` and `[]` stay on one line
        func newline() { out.append(contentsOf: ("\n" + String(repeating: "  ", count: depth)).unicodeScalars) }
        for character in text.unicodeScalars {   // scalars: "\r\n" is one Character
            if inString {
                out.append(character)
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            if character == " " || character == "\t" || character == "\n" || character == "\r" { continue }
            if pendingOpen {
                pendingOpen = false
                if character == "}" || character == "]" { depth -= 1; out.append(character); continue }
                newline()
            }
            switch character {
            case "{", "[":
                out.append(character)
                depth += 1
                pendingOpen = true
            case "}", "]":
                depth -= 1
                newline()
                out.append(character)
            case ",":
                out.append(character)
                newline()
            case ":":
                out.append(contentsOf: ": ".unicodeScalars)
            case "\"":
                inString = true
                out.append(character)
            default:
                out.append(character)
            }
        }
        return String(out)
    }
}
