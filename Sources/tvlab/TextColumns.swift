/// The benchmark reports' tables: columns padded to their widest cell, two spaces apart,
/// trailing blanks trimmed.
enum TextColumns {
    static func aligned(_ rows: [[String]]) -> [String] {
        guard let first = rows.first else { return [] }
        let widths = (0..<first.count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            var line = zip(row, widths).map { cell, width in cell + String(repeating: " ", count: width - cell.count) }
                .joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
