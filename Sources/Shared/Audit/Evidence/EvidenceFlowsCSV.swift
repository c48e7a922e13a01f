/// `flows.csv`'s encoding (audit.md § Evidence bundle): RFC 4180 records, UTF-8, CRLF after every
/// record, one header then the rows. The columns are the caller's; this is only how cells and
/// records are written.
///
///   file   = record *record          (every record ends with CRLF)
///   record = cell *("," cell) CRLF
///   cell   = plain / DQUOTE *(any, with DQUOTE doubled) DQUOTE     (RFC 4180 §2.5–2.7)
///
/// A cell is quoted when it holds `"`, `,`, CR or LF. A cell that begins with `=`, `+`, `-`, `@`,
/// tab or CR gets a leading `'` first (OWASP, CSV injection): a spreadsheet would run it as a
/// formula, and the flows' names and readings come from the network. A negative number reads
/// `'-5` for the same reason.
package enum EvidenceFlowsCSV {
    /// Why a document cannot be written: a row whose width is not the header's (RFC 4180 §2.4
    /// wants one width throughout). A bug in the caller's columns.
    package enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        case rowWidth(row: Int, cells: Int, header: Int)

        package var description: String {
            switch self {
            case let .rowWidth(row, cells, header): "row \(row) has \(cells) cells, the header \(header)"
            }
        }
    }

    /// The first characters a spreadsheet reads as the start of a formula.
    static let formulaTriggers: Set<UInt8> = [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"),
                                              UInt8(ascii: "\t"), UInt8(ascii: "\r")]
    /// What forces a cell into quotes.
    static let quoteTriggers: Set<UInt8> = [UInt8(ascii: "\""), UInt8(ascii: ","), UInt8(ascii: "\r"), UInt8(ascii: "\n")]

    /// The whole document: `header`, then `rows`, each as `record(_:)`.
    package static func document(header: [String], rows: [[String]]) throws(Refusal) -> [UInt8] {
        var out = record(header)
        for (index, row) in rows.enumerated() {
            guard row.count == header.count else { throw .rowWidth(row: index, cells: row.count, header: header.count) }
            out += record(row)
        }
        return out
    }

    /// One record: the cells, comma-separated, and CRLF.
    package static func record(_ cells: [String]) -> [UInt8] {
        var out: [UInt8] = []
        for (index, text) in cells.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendCell(text, to: &out)
        }
        out += [UInt8(ascii: "\r"), UInt8(ascii: "\n")]
        return out
    }

    /// One cell as it stands in a record.
    package static func cell(_ text: String) -> String {
        var out: [UInt8] = []
        appendCell(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendCell(_ text: String, to out: inout [UInt8]) {
        let bytes = text.utf8
        let defused = bytes.first.map { formulaTriggers.contains($0) } ?? false
        let quoted = bytes.contains { quoteTriggers.contains($0) }
        if quoted { out.append(UInt8(ascii: "\"")) }
        if defused { out.append(UInt8(ascii: "'")) }
        if quoted {
            for byte in bytes {
                if byte == UInt8(ascii: "\"") { out.append(byte) }
                out.append(byte)
            }
            out.append(UInt8(ascii: "\""))
        } else {
            out += bytes
        }
    }
}
