import Foundation
import Testing
@testable import App

/// The refusal log line: what a client sent reaches it, and every character that would act on a
/// terminal instead of showing is written out.
@Suite("WebLogLine")
struct WebLogLineTests {
    @Test("C0, DEL, C1, the line separators and the bidirectional controls are written as \\u{…}, a backslash as \\\\; other text is as it was")
    func visible() {
        #expect(WebLogLine.visible("a\nb\r\tc\u{1B}[31m") == "a\\u{A}b\\u{D}\\u{9}c\\u{1B}[31m")
        #expect(WebLogLine.visible("\u{7F}\u{80}\u{85}\u{9F}") == "\\u{7F}\\u{80}\\u{85}\\u{9F}")
        #expect(WebLogLine.visible("x\u{202E}gpj.exe\u{202C}") == "x\\u{202E}gpj.exe\\u{202C}")
        for scalar in [0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A, 0x202B, 0x202D, 0x2066, 0x2067, 0x2068, 0x2069] {
            let text = String(Unicode.Scalar(UInt32(scalar))!)
            #expect(WebLogLine.visible(text) == "\\u{\(String(scalar, radix: 16, uppercase: true))}")
        }
        #expect(WebLogLine.visible("a\\u{41}") == "a\\\\u{41}", "text that looks like an escape cannot pass for one")
        #expect(WebLogLine.visible("héllo — 東京 \u{A0}") == "héllo — 東京 \u{A0}")
    }

    @Test("a Host or Origin value in the reason and the path cannot break, recolour or reorder the line")
    func refusalLine() {
        let host = "evil\u{202E}1.0.0.721\u{1B}[2K\nFAKE 200"
        let refusal = WebAccessRefusal.wrongHost(host)
        let line = WebLogLine.refusal(at: Date(timeIntervalSince1970: 0), peer: "127.0.0.1:5", method: "GET",
                                      target: "/a\\b?key=secret", status: refusal.status, sentence: refusal.sentence)
        #expect(!line.unicodeScalars.contains { WebLogLine.isHidden($0) })
        #expect(line.hasPrefix("1970-01-01T00:00:00Z tunnelvision ui: 127.0.0.1:5 GET /a\\\\b 421 "))
        #expect(line.contains("evil\\u{202E}1.0.0.721\\u{1B}[2K\\u{A}FAKE 200"))
        #expect(!line.contains("secret"))
    }
}
