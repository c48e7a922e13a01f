import Foundation
import Testing
import Shared
import TestSupport

/// `flows.csv`'s encoding (audit.md § Evidence bundle): RFC 4180 quoting, the CSV-injection
/// prefix, CRLF, UTF-8 — and Python's `csv` module reading back exactly the cells written.
@Suite struct EvidenceFlowsCSVTests {
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test("plain cells stand as they are, separated by commas, each record ended by CRLF")
    func plain() throws {
        let bytes = try EvidenceFlowsCSV.document(header: ["id", "name"], rows: [["1", "api.lab.test"], ["2", ""]])
        #expect(Self.text(bytes) == "id,name\r\n1,api.lab.test\r\n2,\r\n")
        #expect(Self.text(EvidenceFlowsCSV.record([])) == "\r\n")
    }

    @Test("a cell holding a quote, a comma, CR or LF is quoted, its quotes doubled", arguments: [
        ("say \"hi\"", "\"say \"\"hi\"\"\""), ("a,b", "\"a,b\""), ("a\rb", "\"a\rb\""), ("a\nb", "\"a\nb\""),
        ("a\r\nb", "\"a\r\nb\""), ("\"", "\"\"\"\""), ("x\"", "\"x\"\"\""),
    ])
    func quoting(cell: String, encoded: String) {
        #expect(EvidenceFlowsCSV.cell(cell) == encoded)
    }

    @Test("a cell beginning with =, +, -, @, tab or CR gets a leading ' so no spreadsheet runs it", arguments: [
        ("=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\""), ("=1+1", "'=1+1"), ("+1", "'+1"), ("-5", "'-5"),
        ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"), ("\rx", "\"'\rx\""), ("-", "'-"), ("=", "'="),
    ])
    func injection(cell: String, encoded: String) {
        #expect(EvidenceFlowsCSV.cell(cell) == encoded)
    }

    @Test("the same characters later in a cell, or other first characters, change nothing", arguments: [
        "a=b", "1-2", "x@y", "a+b", " =1", "'=1", "\n=1",
    ])
    func notAtTheStart(cell: String) {
        // Nothing added: the cell as it is, quoted only where it holds a line break.
        #expect(EvidenceFlowsCSV.cell(cell) == (cell.contains("\n") ? "\"\(cell)\"" : cell))
    }

    @Test("text stays UTF-8 as given")
    func utf8() {
        #expect(Array(EvidenceFlowsCSV.record(["bücher.example", "日本", "🙂"])) == Array("bücher.example,日本,🙂\r\n".utf8))
    }

    @Test("a row whose width is not the header's is refused")
    func rowWidth() {
        #expect(throws: EvidenceFlowsCSV.Refusal.rowWidth(row: 1, cells: 3, header: 2)) {
            try EvidenceFlowsCSV.document(header: ["a", "b"], rows: [["1", "2"], ["1", "2", "3"]])
        }
    }

    @Test("Python's csv module reads back every cell written, the defusing ' included")
    func pythonReadsItBack() throws {
        let header = ["id", "name", "note"]
        let rows = [
            ["1", "api.lab.test", "plain"],
            ["2", "say \"hi\", then\r\nleave", "a\nb"],
            ["3", "=cmd|' /C calc'!A0", "+1"],
            ["4", "-2", "@x"],
            ["5", "\tx", "\ry"],
            ["6", "", "naïve 🙂"],
        ]
        let directory = TemporaryDirectory("tv-csv")
        let file = directory.url.appendingPathComponent("flows.csv")
        let bytes = try EvidenceFlowsCSV.document(header: header, rows: rows)
        try Data(bytes).write(to: file)
        let script = """
            import csv, json, sys
            with open(sys.argv[1], newline='', encoding='utf-8') as f:
                print(json.dumps(list(csv.reader(f, strict=True))))
            """
        let read = try #require(try PythonOracle.json(script, [file.path]) as? [[String]])
        let defused = rows.map { $0.map { cell in ["=", "+", "-", "@", "\t", "\r"].contains { cell.hasPrefix($0) } ? "'" + cell : cell } }
        #expect(read == [header] + defused)
        // Seven records each ended by CRLF, and the one CRLF inside a quoted cell.
        #expect(Self.text(bytes).components(separatedBy: "\r\n").count == 1 + 7 + 1)
        #expect(Self.text(bytes).hasSuffix(",naïve 🙂\r\n"))
    }
}
