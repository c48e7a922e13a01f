/// A server_name kept as the client sent it when it is no host name: printable ASCII as is, a
/// backslash and every other byte escaped (`\\`, `\xNN`), so a person and a script read exactly
/// which bytes were sent and nothing in them can pass for something else. Bounded: a name
/// longer than `maxBytes` keeps its first bytes and says it was cut.
package enum ServerNameAsSent {
    /// The most bytes of a name kept (a host name is at most 253).
    package static let maxBytes = 255

    package static func text(_ bytes: some Collection<UInt8>) -> String {
        var text = ""
        for byte in bytes.prefix(maxBytes) {
            switch byte {
            case UInt8(ascii: "\\"): text += "\\\\"
            case 0x20...0x7E: text.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16)
                text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        if bytes.count > maxBytes { text += "… (\(bytes.count) bytes)" }
        return text
    }
}
