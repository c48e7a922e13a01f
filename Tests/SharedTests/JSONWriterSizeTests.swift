import Foundation
import Shared
import TestSupport
import Testing

@Suite("Every size the product writes as JSON carries the words a screen shows beside its number")
struct JSONWriterSizeTests {
    static func document(_ body: (inout JSONWriter) -> Void) -> String {
        var out = JSONWriter(capacity: 64)
        out.beginObject()
        body(&out)
        out.endObject()
        return out.writer.string
    }

    @Test("a size is its number and, under the same name with Text, binary units with one decimal, read by Python's json")
    func sizesAndTheirWords() throws {
        let json = Self.document { out in
            out.number("before", 1)
            out.size("small", 1023)
            out.size("bytesIn", 1536)
            out.size("big", 5 << 30)
            out.number("after", 2)
        }
        // Hand-computed: 1 536 / 1 024 = 1.5; 5 · 2³⁰ / 2³⁰ = 5.
        #expect(try PythonJSON.value(json, "small") == "1023" && PythonJSON.value(json, "smallText") == "\"1023 B\"")
        #expect(try PythonJSON.value(json, "bytesIn") == "1536" && PythonJSON.value(json, "bytesInText") == "\"1.5 KiB\"")
        #expect(try PythonJSON.value(json, "bigText") == "\"5.0 GiB\"")
        // The words sit right after their number, so a reader of the raw line finds them together.
        #expect(json.contains(#""bytesIn":1536,"bytesInText":"1.5 KiB","big":"#))
        #expect(try PythonJSON.value(json, "after") == "2")
    }

    @Test("a size not known is null, and its words say unknown rather than zero")
    func unknownSize() throws {
        let json = Self.document { $0.size("bytes", nil) }
        #expect(try PythonJSON.value(json, "bytes") == "null")
        #expect(try PythonJSON.value(json, "bytesText") == "\"unknown\"")
    }

    @Test("a rate is written whole, its words from the rounded number; a rate that is not a number is unknown")
    func rates() throws {
        let json = Self.document { out in
            out.size("up", perSecond: 1535.6)
            out.size("down", perSecond: 2.4)
            out.size("broken", perSecond: .nan)
        }
        #expect(try PythonJSON.value(json, "up") == "1536" && PythonJSON.value(json, "upText") == "\"1.5 KiB\"")
        #expect(try PythonJSON.value(json, "down") == "2" && PythonJSON.value(json, "downText") == "\"2 B\"")
        #expect(try PythonJSON.value(json, "broken") == "null" && PythonJSON.value(json, "brokenText") == "\"unknown\"")
    }
}
