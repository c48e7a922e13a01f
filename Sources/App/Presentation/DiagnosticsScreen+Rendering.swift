import Shared

extension DiagnosticsScreen {
    /// The terminal form: the resolver's warning above the headline, then each section's rows,
    /// labels padded so the values line up, and the section's footer under them.
    package var text: String {
        var lines: [String] = []
        if let resolverNotice { lines += ["Warning: \(resolverNotice.text)", ""] }
        lines.append(headline.text)
        for section in sections {
            lines += ["", section.title]
            let width = section.rows.map(\.label.count).max() ?? 0
            for row in section.rows {
                lines.append("  " + row.label + String(repeating: " ", count: width - row.label.count + 2) + row.value)
            }
            if let note = section.note { lines.append("  " + note) }
        }
        return lines.joined(separator: "\n")
    }

    /// {"monitoring", "headline": {"verdict", "text"}, "resolverNotice": {…} | null,
    ///  "sections": [{"key", "title", "note", "rows": [{"key", "label", "value"}]}]}
    package var json: String {
        var out = JSONWriter()
        out.beginObject()
        out.bool("monitoring", isMonitoring)
        out.beginObject("headline")
        Self.write(headline, &out)
        out.endObject()
        out.key("resolverNotice")
        if let resolverNotice {
            out.beginObject()
            Self.write(resolverNotice, &out)
            out.endObject()
        } else {
            out.null()
        }
        out.beginArray("sections")
        for section in sections {
            out.beginObject()
            out.string("key", section.key)
            out.string("title", section.title)
            out.string("note", section.note)
            out.beginArray("rows")
            for row in section.rows {
                out.beginObject()
                out.string("key", row.key)
                out.string("label", row.label)
                out.string("value", row.value)
                out.endObject()
            }
            out.endArray()
            out.endObject()
        }
        out.endArray()
        out.endObject()
        return String(decoding: out.writer.bytes, as: UTF8.self)
    }

    private static func write(_ headline: DiagnosticsHeadline, _ out: inout JSONWriter) {
        out.string("verdict", headline.verdict)
        out.string("text", headline.text)
    }
}
