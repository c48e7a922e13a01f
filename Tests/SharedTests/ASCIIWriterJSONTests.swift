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

    @Test("Controls become \\u escapes and nothing else is touched")
    func controlsAreEscapedAndTheRestKept() {
        var writer = ASCIIWriter()
        writer.appendJSONEscaped("a\u{1}b\"c\\d\ne é")
        #expect(writer.string == #"a\u0001b\"c\\d\ne é"#)
    }
}
