import Foundation
import Shared
import Testing

@Suite("Escaping text for JSON")
struct ASCIIWriterJSONTests {
    /// Every escape, at the start, the middle and the end, beside plain runs and multi-byte UTF-8.
    static let samples = [
        "", "plain", "\"", "\\", "a\"b\\c", "\"quoted at both ends\"", "tab\there", "line\nbreak\r",
        "\u{0}\u{1}\u{1F}", "bell\u{7}", "del\u{7F} stays", "é ü ✓ 😀", "\\\\\"\"", "ends with a control\u{1B}",
        "CN=a\\,b, O=\"x\"",
    ]

    @Test("Foundation's JSON reader reads back exactly the text written", arguments: samples)
    func foundationReadsBackTheText(text: String) throws {
        var writer = ASCIIWriter()
        writer.append("[\"")
        writer.appendJSONEscaped(text)
        writer.append("\"]")
        let decoded = try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String]
        #expect(decoded == [text])
    }

    /// The writer passes over eight bytes at a time while none needs an escape: each character, at
    /// each place in and across those words, must still be seen.
    @Test("Every ASCII character and two multi-byte ones read back from any place in a long string")
    func everyCharacterReadsBackFromAnyPlace() throws {
        let characters = (0..<0x80).map { Character(Unicode.Scalar(UInt8($0))) } + ["é", "😀"]
        var mismatches: [String] = []
        for character in characters {
            for place in 0...20 {
                var text = String(repeating: "x", count: 20)
                text.insert(character, at: text.index(text.startIndex, offsetBy: place))
                var writer = ASCIIWriter()
                writer.append("[\"")
                writer.appendJSONEscaped(text)
                writer.append("\"]")
                let decoded = try? JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String]
                if decoded != [text] { mismatches.append("\(character.unicodeScalars.first!.value) at \(place)") }
            }
        }
        #expect(mismatches.isEmpty)
    }

    @Test("Controls become \\u escapes and nothing else is touched")
    func controlsAreEscapedAndTheRestKept() {
        var writer = ASCIIWriter()
        writer.appendJSONEscaped("a\u{1}b\"c\\d\ne é")
        #expect(writer.string == #"a\u0001b\"c\\d\ne é"#)
    }
}
