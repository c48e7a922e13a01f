import Foundation

/// The one JSON writer of every document the product prints (`analyze --json`, `packets --json`,
/// `run --json-summary`, the demo's `--json`): values appended in order into an `ASCIIWriter`,
/// the commas placed by the writer, keys static, strings escaped by `appendJSONEscaped`. Large
/// documents stream: the owner takes `writer`'s bytes out whenever it likes and empties it, and
/// the next value carries on where the last one stopped.
///
/// It checks nothing about nesting: a key outside an object writes a malformed document. The
/// tests read every document the product prints back with Foundation's and Python's parsers.
package struct JSONWriter: Sendable {
    package var writer: ASCIIWriter
    private var needsComma = false

    package init(capacity: Int = 4096) {
        writer = ASCIIWriter(capacity: capacity)
    }

    package mutating func beginObject() { open(UInt8(ascii: "{")) }
    package mutating func beginObject(_ name: StaticString) {
        key(name)
        open(UInt8(ascii: "{"))
    }
    package mutating func endObject() { close(UInt8(ascii: "}")) }

    package mutating func beginArray() { open(UInt8(ascii: "[")) }
    package mutating func beginArray(_ name: StaticString) {
        key(name)
        open(UInt8(ascii: "["))
    }
    package mutating func endArray() { close(UInt8(ascii: "]")) }

    /// `,"name":` in one reservation of the buffer: a report writes some thirty keys per
    /// conversation, and each append checked the room on its own.
    package mutating func key(_ name: StaticString) { key(name, suffix: "") }

    /// `,"namesuffix":`, for a key made of two static parts (`size`'s "…Text").
    private mutating func key(_ name: StaticString, suffix: StaticString) {
        let comma = needsComma
        needsComma = false
        writer.write(reserving: name.utf8CodeUnitCount + suffix.utf8CodeUnitCount + 4) { start in
            var index = 0
            if comma { start[0] = UInt8(ascii: ","); index = 1 }
            start[index] = UInt8(ascii: "\"")
            index += 1
            index += ASCIIWriter.store(name, at: start + index)
            index += ASCIIWriter.store(suffix, at: start + index)
            start[index] = UInt8(ascii: "\"")
            start[index + 1] = UInt8(ascii: ":")
            return index + 2
        }
    }

    /// A size in bytes under `name` and, beside it under `name` + "Text", the words a screen
    /// shows for it (`ByteCountText.binary`: "1.5 KiB"; "unknown" with a null size): the page
    /// writes the server's words, so one rule formats every size the product shows.
    package mutating func size(_ name: StaticString, _ value: UInt64?) {
        key(name)
        if let value { element(value) } else { null() }
        key(name, suffix: "Text")
        element(value.map(ByteCountText.binary) ?? "unknown")
    }

    /// A rate in bytes a second, whole, with its words as `size` writes them ("1.5 KiB").
    package mutating func size(_ name: StaticString, perSecond value: Double) {
        let whole = value.isFinite ? UInt64(max(0, value.rounded())) : nil
        size(name, whole)
    }

    package mutating func string(_ name: StaticString, _ value: String?) {
        key(name)
        element(value)
    }

    package mutating func strings(_ name: StaticString, _ values: [String]) {
        beginArray(name)
        for value in values { element(value) }
        endArray()
    }

    package mutating func number(_ name: StaticString, _ value: Int?) {
        key(name)
        if let value { element(value) } else { null() }
    }

    package mutating func number(_ name: StaticString, _ value: UInt64) {
        key(name)
        element(value)
    }

    package mutating func numbers(_ name: StaticString, _ values: [Int]) {
        beginArray(name)
        for value in values { element(value) }
        endArray()
    }

    /// A number with a fixed count of decimals (durations in seconds): JSON has no NaN or
    /// infinity, so a non-finite value is written as null.
    package mutating func number(_ name: StaticString, _ value: Double, decimals: Int) {
        key(name)
        guard value.isFinite else { return null() }
        separate()
        writer.append(String(format: "%.\(decimals)f", value))
        needsComma = true
    }

    package mutating func bool(_ name: StaticString, _ value: Bool) {
        key(name)
        writer.append(value ? "true" : "false")
        needsComma = true
    }

    /// null for a fact not known.
    package mutating func bool(_ name: StaticString, _ value: Bool?) {
        guard let value else {
            key(name)
            return null()
        }
        bool(name, value)
    }

    package mutating func element(_ value: String?) {
        guard let value else { return null() }
        separate()
        writer.append(UInt8(ascii: "\""))
        writer.appendJSONEscaped(value)
        writer.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A value already written as JSON (an object, an array, a string with its quotes…), as is.
    package mutating func element(json: [UInt8]) {
        separate()
        json.withUnsafeBytes { writer.append(bytes: $0) }
        needsComma = true
    }

    /// A string value written by `body` straight into the buffer (an address, a timestamp): the
    /// caller writes only characters that need no escaping.
    package mutating func element(unescaped body: (inout ASCIIWriter) -> Void) {
        separate()
        writer.append(UInt8(ascii: "\""))
        body(&writer)
        writer.append(UInt8(ascii: "\""))
        needsComma = true
    }

    package mutating func string(_ name: StaticString, unescaped body: (inout ASCIIWriter) -> Void) {
        key(name)
        element(unescaped: body)
    }

    package mutating func element(_ value: Int) {
        separate()
        if value < 0 { writer.append(UInt8(ascii: "-")) }
        writer.appendDecimal(value.magnitude)
        needsComma = true
    }

    package mutating func element(_ value: UInt64) {
        separate()
        writer.appendDecimal(value)
        needsComma = true
    }

    package mutating func null() {
        separate()
        writer.append("null")
        needsComma = true
    }

    /// A line break before the next value (after its comma), for a reader who scrolls; JSON
    /// ignores it.
    package mutating func newline() {
        separate()
        writer.append(UInt8(ascii: "\n"))
    }

    /// A line break where JSON allows white space (before a closing bracket, at the end).
    package mutating func lineBreak() { writer.append(UInt8(ascii: "\n")) }

    private mutating func open(_ bracket: UInt8) {
        separate()
        writer.append(bracket)
    }

    private mutating func close(_ bracket: UInt8) {
        writer.append(bracket)
        needsComma = true
    }

    /// A comma before a value that follows another; after a key's colon or an opening bracket, none.
    private mutating func separate() {
        if needsComma { writer.append(UInt8(ascii: ",")) }
        needsComma = false
    }
}
