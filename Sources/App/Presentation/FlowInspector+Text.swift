import Foundation
import Shared

extension FlowInspector {
    /// What `tunnelvision flow ID` prints: the header, the name, TLS in the analyze report's
    /// words, the decrypted content (or why there is none), then the packet list and its footer.
    package func text() -> String {
        var lines = ["Connection \(flow.id)" + (flow.name.map { ": \($0.text)" } ?? " (no name known)")]
        if let name = flow.name, let source = flow.nameSourceText {
            lines.append("  name \(source)")
            if !name.otherCandidates.isEmpty {
                lines.append("  the address also answered for: \(name.otherCandidates.joined(separator: ", "))")
            }
        }
        if let target = flow.stored.proxyTarget { lines.append("  opened as \(ProxyTargetWording.text(target))") }
        let facts = facts
        let width = facts.map(\.label.count).max() ?? 0
        lines.append("")
        for fact in facts {
            lines.append("  " + fact.label.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + fact.value)
        }
        var tls = (handshakeFacts + fingerprintFacts).map { "    \($0.label): \($0.value)" }
        if case .presented(let chain) = certificates { tls += AnalysisReport.chainLines(chain) }
        if !tls.isEmpty {
            lines.append("")
            lines.append("  What the handshake said:")
            lines += tls
        }
        lines += decryptedLines()
        lines.append("")
        if rows.isEmpty {
            lines.append("  No packets of this connection are in the history.")
        } else {
            lines.append("  Packets (time since the first; 'tunnelvision flow \(flow.id) --packet N' shows one):")
            let table = rows.map { row in
                ["#\(row.number)", row.time, Self.directionWord(row.packet.direction), "\(row.packet.length) B",
                 row.title.text, row.flags, row.packet.capture == nil ? "not captured" : ""]
            }
            lines += Self.aligned(table).map { "    " + $0 }
        }
        if let footer { lines.append("  " + footer) }
        return lines.joined(separator: "\n")
    }

    /// "sent" or "received", as seen from this device.
    static func directionWord(_ direction: Direction) -> String {
        direction == .outbound ? "sent" : "received"
    }

    static func aligned(_ rows: [[String]]) -> [String] {
        guard let columns = rows.first?.count else { return [] }
        let widths = (0..<columns).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == 0 || column == 3 ? String(repeating: " ", count: widths[column] - cell.count) + cell
                                           : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
    }
}
