import Foundation

/// How the evidence documents write the values they share (audit.md § Evidence bundle): instants
/// as ISO 8601 UTC at their nearest microsecond (the capture's resolution), TLS versions as `{name, wireValue}`, open code points as
/// `{hex, wireValue}` with the hex upper-case and as wide as the field (`0xC02F`, `0x00000001`).
/// Keys are written in sorted order by each document, by hand: the writer does not sort.
enum EvidenceJSON {
    /// `2026-11-30T02:18:50.123456Z`: a stored instant (ns since 1970) at its nearest microsecond.
    static func instant(_ out: inout JSONWriter, _ key: StaticString, nanoseconds: Int64) {
        out.string(key, unescaped: { writeInstant(microseconds: microseconds(nanoseconds: nanoseconds), to: &$0) })
    }

    /// A date at its nearest microsecond: one rule for every instant of the bundle.
    static func instant(_ out: inout JSONWriter, _ key: StaticString, _ date: Date) {
        out.string(key, unescaped: { writeInstant(microseconds: microseconds(date), to: &$0) })
    }

    static func instantText(nanoseconds: Int64) -> String {
        var writer = ASCIIWriter(capacity: 32)
        writeInstant(microseconds: microseconds(nanoseconds: nanoseconds), to: &writer)
        return writer.string
    }

    static func microseconds(nanoseconds: Int64) -> Int64 {
        let (shifted, overflow) = nanoseconds.addingReportingOverflow(500)
        let value = overflow ? nanoseconds : shifted
        // Floor division, so instants before 1970 round the same way.
        return value >= 0 ? value / 1_000 : (value - 999) / 1_000
    }

    static func microseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1e6).rounded()
        return value.isFinite && abs(value) < 9e15 ? Int64(value) : 0
    }

    private static func writeInstant(microseconds: Int64, to writer: inout ASCIIWriter) {
        var stamp = UTCTimestamp(fractionDigits: 6)
        stamp.write(nanosecondsSince1970: microseconds.multipliedReportingOverflow(by: 1_000).partialValue, to: &writer)
    }

    /// `{"name":"TLS 1.2","wireValue":771}`.
    static func tlsVersion(_ out: inout JSONWriter, _ version: TLSProtocolVersion) {
        out.beginObject()
        out.string("name", version.name)
        out.number("wireValue", Int(version.rawValue))
        out.endObject()
    }

    static func tlsVersion(_ out: inout JSONWriter, _ key: StaticString, _ version: TLSProtocolVersion) {
        out.key(key)
        tlsVersion(&out, version)
    }

    /// `0xC02F` for a 16-bit code point, `0x00000001` for a 32-bit one.
    static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// A cipher suite: `{"hex":"0xC02F","name":"TLS_ECDHE_RSA_…","wireValue":49199}`, the IANA name
    /// only when known.
    static func cipherSuite(_ out: inout JSONWriter, _ key: StaticString, _ suite: TLSCipherSuite) {
        out.beginObject(key)
        out.string("hex", hex(UInt64(suite.rawValue), digits: 4))
        if let name = suite.ianaName { out.string("name", name) }
        out.number("wireValue", Int(suite.rawValue))
        out.endObject()
    }

    /// A QUIC version: `{"hex":"0x00000001","wireValue":1}`.
    static func quicVersion(_ out: inout JSONWriter, _ key: StaticString, _ version: QUICVersion) {
        out.beginObject(key)
        out.string("hex", hex(UInt64(version.rawValue), digits: 8))
        out.number("wireValue", Int(version.rawValue))
        out.endObject()
    }

    /// `[1,2,3]` of flow ids.
    static func ids(_ out: inout JSONWriter, _ key: StaticString, _ ids: [Int64]) {
        out.beginArray(key)
        for id in ids { out.element(Int(id)) }
        out.endArray()
    }

    /// An array of `items`, each on a line of its own (a reader scrolls a long one).
    static func lines<Item>(_ out: inout JSONWriter, _ key: StaticString, _ items: [Item],
                            _ write: (Item, inout JSONWriter) -> Void) {
        out.beginArray(key)
        for item in items {
            out.newline()
            write(item, &out)
        }
        if !items.isEmpty { out.lineBreak() }
        out.endArray()
    }

    /// The end of a document: its bytes with a final line break.
    static func finish(_ out: inout JSONWriter) -> [UInt8] {
        out.lineBreak()
        return Array(out.writer.bytes)
    }
}
