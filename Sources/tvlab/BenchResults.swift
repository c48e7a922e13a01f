import Foundation

/// The figures of one `bench packets` run, judged against the targets, as a table or JSON.
struct BenchResults {
    static let ratioTarget = 20.0
    static let bareParseTarget = 10_000_000.0

    let packets: Int
    let seed: UInt64
    let tunnelvisionPath: String
    let tunnelvisionRuns: [Double]
    let tsharkSeconds: Double
    let bare: BareParse.Measurement
    let keptDirectory: String?

    var tunnelvisionSeconds: Double { tunnelvisionRuns.min() ?? .nan }
    var tunnelvisionRate: Double { Double(packets) / tunnelvisionSeconds }
    var tsharkRate: Double { Double(packets) / tsharkSeconds }
    var ratio: Double { tunnelvisionRate / tsharkRate }
    var ratioMet: Bool { ratio >= Self.ratioTarget }
    var bareParseMet: Bool { bare.packetsPerSecond >= Self.bareParseTarget }
    var allocationsMet: Bool { bare.allocations == 0 }
    var unmetTargets: Int { [ratioMet, bareParseMet, allocationsMet].filter { !$0 }.count }

    func table() -> String {
        let rows: [[String]] = [
            ["measure", "time", "result", "target", ""],
            ["tunnelvision packets (best of \(tunnelvisionRuns.count))", seconds(tunnelvisionSeconds),
             grouped(tunnelvisionRate) + " packets/s", "—", ""],
            ["tshark -T fields", seconds(tsharkSeconds), grouped(tsharkRate) + " packets/s", "—", ""],
            ["ratio tunnelvision / tshark", "", String(format: "%.1f×", ratio),
             String(format: "≥ %.0f×", Self.ratioTarget), verdict(ratioMet)],
            ["bare PacketParser.parse (\(bare.passes) passes)", seconds(bare.seconds),
             grouped(bare.packetsPerSecond) + " packets/s", "≥ " + grouped(Self.bareParseTarget) + " packets/s",
             verdict(bareParseMet)],
            ["allocations per packet", "", allocationsText, "0", verdict(allocationsMet)],
        ]
        var lines = ["tvlab bench packets — \(grouped(Double(packets))) synthetic packets (seed \(seed))", ""]
        lines += aligned(rows)
        lines.append("")
        lines.append(unmetTargets == 0 ? "all targets met" : "\(unmetTargets) of 3 targets NOT met")
        if let keptDirectory { lines.append("capture kept in \(keptDirectory)") }
        return lines.joined(separator: "\n")
    }

    func json() -> String {
        func target(_ value: String, _ target: String, _ met: Bool, extra: String = "") -> String {
            "{\"value\":\(value),\"target\":\(target),\"met\":\(met)\(extra)}"
        }
        let fields = [
            "\"packets\":\(packets)",
            "\"seed\":\(seed)",
            "\"tunnelvision\":{\"path\":\(quoted(tunnelvisionPath)),\"runsSeconds\":[\(tunnelvisionRuns.map(number).joined(separator: ","))],"
                + "\"bestSeconds\":\(number(tunnelvisionSeconds)),\"packetsPerSecond\":\(number(tunnelvisionRate))}",
            "\"tshark\":{\"seconds\":\(number(tsharkSeconds)),\"packetsPerSecond\":\(number(tsharkRate))}",
            "\"ratio\":" + target(number(ratio), number(Self.ratioTarget), ratioMet),
            "\"bareParse\":" + target(number(bare.packetsPerSecond), number(Self.bareParseTarget), bareParseMet,
                                      extra: ",\"passes\":\(bare.passes),\"seconds\":\(number(bare.seconds)),\"malformed\":\(bare.malformed)"),
            "\"allocationsPerPacket\":" + target(number(bare.allocationsPerPacket), "0", allocationsMet,
                                                 extra: ",\"allocationsInOnePass\":\(bare.allocations)"),
            "\"allTargetsMet\":\(unmetTargets == 0)",
            "\"keptDirectory\":" + (keptDirectory.map(quoted) ?? "null"),
        ]
        return "{" + fields.joined(separator: ",") + "}"
    }

    private var allocationsText: String {
        bare.allocations == 0 ? "0" : String(format: "%.4f", bare.allocationsPerPacket) + " (\(bare.allocations) in one pass)"
    }

    private func verdict(_ met: Bool) -> String { met ? "met" : "NOT met" }

    private func seconds(_ value: Double) -> String { String(format: "%.3f s", value) }

    /// A whole number with thousands separators, for reading at a glance.
    private func grouped(_ value: Double) -> String {
        value.isFinite ? IPCBenchCommand.grouped(Int64(value.rounded())) : "∞"
    }

    /// JSON has no infinity or NaN; those become null.
    private func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if abs(value) >= 1_000 { return String(Int64(value.rounded())) }  // rates: whole packets/s
        return value == value.rounded() ? String(Int64(value)) : "\(value)"
    }

    private func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// Columns padded to their widest cell, two spaces apart.
    private func aligned(_ rows: [[String]]) -> [String] {
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            zip(row, widths).map { cell, width in cell + String(repeating: " ", count: width - cell.count) }
                .joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
    }
}
