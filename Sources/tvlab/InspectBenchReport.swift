import Bench
import Foundation
import Linux

/// Everything one `bench inspect` run measured, judged against the targets, as a table or JSON.
struct InspectBenchResults {
    let options: InspectBenchOptions
    /// /proc/loadavg when the run started: the machine may be shared.
    let load: String
    var figures: [InspectBenchPath: InspectPathFigures] = [:]
    /// The inspecting tunnel's `leavesMinted` after each connection run (nil: not reported).
    var leavesMinted: [Int?] = []
    var mitmproxyVersion: String?
    var notes: [String] = []
    var failures: [String] = []

    /// The worst run's count: every run must mint one leaf for its one host.
    var judgedLeavesMinted: Int? {
        guard !leavesMinted.isEmpty, !leavesMinted.contains(nil) else { return nil }
        return leavesMinted.compactMap { $0 }.max()
    }

    var verdicts: [InspectBenchTargets.Verdict] { InspectBenchTargets.verdicts(figures, leavesMinted: judgedLeavesMinted) }

    func table() -> String {
        var lines = ["tvlab bench inspect — HTTPS to \(InspectBenchLab.host) (nginx, \(Lab.serverIPv4):443) in the lab; "
                     + "\(options.repeats) runs per figure, median (min–max); load average at the start: "
                     + load.split(separator: " ").prefix(3).joined(separator: " "),
                     "  download: curl --http1.1, one fresh connection, \(options.largeMiB) MiB file",
                     "  conn/s:   \(options.connections) sequential fresh TLS connections in one Python process "
                     + "(connect, handshake, GET \(InspectBenchLab.tinyFile), close)", ""]
        var rows = [["path", "download", "conn/s"]]
        for path in InspectBenchPath.allCases {
            let figures = self.figures[path] ?? InspectPathFigures()
            rows.append([Self.label(path), spread(figures.throughput, InspectBenchCommand.megabytes),
                         spread(figures.connectionRate) { String(format: "%.0f", $0) }])
        }
        lines += TextColumns.aligned(rows)
        let comparison = InspectBenchComparison(figures)
        lines += ["", "ratios: download inspect/passthrough " + ratio(comparison.throughputOfPassthrough)
                  + ", inspect/mitmproxy " + ratio(comparison.throughputOfMitmproxy)
                  + "; conn/s inspect/passthrough " + ratio(comparison.connectionRateOfPassthrough)
                  + ", inspect/mitmproxy " + ratio(comparison.connectionRateOfMitmproxy)]
        lines.append("leaves minted per inspecting run: "
                     + (leavesMinted.isEmpty ? "—" : leavesMinted.map { $0.map(String.init) ?? "not reported" }.joined(separator: ", ")))
        lines += ["", "targets (issue 15 § Speed; issue 23 raised the first from 0.5× to 0.7×):"]
        lines += TextColumns.aligned(verdicts.map { ["  " + Self.label($0.measure), value($0), target($0), verdict($0.met)] })
        let unmet = verdicts.filter { $0.met == false }.count, unjudged = verdicts.filter { $0.met == nil }.count
        lines += ["", (unmet == 0 ? "all measured targets met" : "\(unmet) of \(verdicts.count) targets NOT met")
                  + (unjudged == 0 ? "" : "; \(unjudged) not measured")]
        if !notes.isEmpty { lines += [""] + notes }
        if !failures.isEmpty { lines += ["", "failed:"] + failures.map { "  " + $0 } }
        return lines.joined(separator: "\n")
    }

    static func label(_ path: InspectBenchPath) -> String {
        switch path {
        case .inspect: "tunnelvision run --inspect"
        case .passthrough: "tunnelvision run"
        case .mitmproxy: "mitmdump (HTTPS proxy)"
        }
    }

    static func label(_ measure: InspectBenchTargets.Measure) -> String {
        switch measure {
        case .throughputOfPassthrough: "inspected download vs passthrough"
        case .throughputOfMitmproxy: "inspected download vs mitmproxy"
        case .connectionRateOfMitmproxy: "inspected conn/s vs mitmproxy"
        case .leavesMinted: "leaves minted for one host, per run"
        }
    }

    private func value(_ verdict: InspectBenchTargets.Verdict) -> String {
        guard let value = verdict.value else { return "not measured" }
        return verdict.measure == .leavesMinted ? String(Int(value)) : ratio(value)
    }

    private func target(_ verdict: InspectBenchTargets.Verdict) -> String {
        switch verdict.measure {
        case .throughputOfPassthrough: String(format: "≥ %.1f×", verdict.target)
        case .throughputOfMitmproxy, .connectionRateOfMitmproxy: String(format: "≥ %.0f×", verdict.target)
        case .leavesMinted: "= \(Int(verdict.target))"
        }
    }

    private func verdict(_ met: Bool?) -> String {
        switch met {
        case true?: "met"
        case false?: "NOT met"
        case nil: "—"
        }
    }

    private func ratio(_ value: Double?) -> String { value.map { String(format: "%.2f×", $0) } ?? "—" }

    private func spread(_ runs: [Double], _ format: (Double) -> String) -> String {
        guard let median = BenchStatistics.median(runs), let low = runs.min(), let high = runs.max() else { return "—" }
        return runs.count == 1 ? format(median) : "\(format(median)) (\(format(low))–\(format(high)))"
    }

    // MARK: JSON

    func json() -> String {
        let comparison = InspectBenchComparison(figures)
        var paths: [String: Any] = [:]
        for (path, figures) in figures {
            paths[path.rawValue] = ["downloadBytesPerSecond": series(figures.throughput),
                                    "connectionsPerSecond": series(figures.connectionRate)]
        }
        let object: [String: Any] = [
            "largeFileBytes": options.largeMiB << 20,
            "connectionsPerRun": options.connections,
            "repeat": options.repeats,
            "loadAverage": load.trimmingCharacters(in: .whitespacesAndNewlines),
            "mitmproxyVersion": mitmproxyVersion.map { $0 as Any } ?? NSNull(),
            "paths": paths,
            "ratios": [
                "downloadInspectOverPassthrough": nullable(comparison.throughputOfPassthrough),
                "downloadInspectOverMitmproxy": nullable(comparison.throughputOfMitmproxy),
                "connectionsInspectOverPassthrough": nullable(comparison.connectionRateOfPassthrough),
                "connectionsInspectOverMitmproxy": nullable(comparison.connectionRateOfMitmproxy),
            ] as [String: Any],
            "leavesMintedPerRun": leavesMinted.map { $0.map { $0 as Any } ?? NSNull() },
            "targets": verdicts.map { verdict -> [String: Any] in
                ["measure": verdict.measure.rawValue, "value": nullable(verdict.value), "target": verdict.target,
                 "met": verdict.met.map { $0 as Any } ?? NSNull()]
            },
            "allTargetsMet": verdicts.allSatisfy { $0.met == true },
            "notes": notes,
            "failures": failures,
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    private func series(_ runs: [Double]) -> [String: Any] {
        ["runs": runs, "median": nullable(BenchStatistics.median(runs)), "min": nullable(runs.min()), "max": nullable(runs.max())]
    }

    private func nullable(_ value: Double?) -> Any {
        guard let value, value.isFinite else { return NSNull() }
        return value
    }
}
