/// Server-Sent Events framing (WHATWG HTML § 9.2): `event: NAME`, one `data:` line per line of
/// the data, a blank line. The live feed's data is one JSON line; a newline inside data is
/// carried as a second `data:` line, which the browser joins back with a newline.
package enum ServerSentEvent {
    package static func frame(event: String, data: String) -> [UInt8] {
        // A line break in the name would end the field early and forge another: dropped.
        let name = event.filter { $0 != "\n" && $0 != "\r" }
        var text = "event: \(name)\n"
        for line in data.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            text += "data: \(line)\n"
        }
        text += "\n"
        return Array(text.utf8)
    }

    /// A comment line: ignored by the browser, it tells everything between that the stream lives.
    package static let heartbeat = Array(": keep-alive\n\n".utf8)
}
