import Bench
import Foundation
import Linux
import Shared

/// One path's row: its figures, or why it has none.
struct PathResult {
    let path: TunnelBenchPath
    /// The MTU the path was run with; nil for a path that takes none (direct, the services).
    var mtu: Int?
    var unavailable: String?
    var figures = PathFigures()

    init(path: TunnelBenchPath, mtu: Int? = nil, unavailable: String? = nil, figures: PathFigures = PathFigures()) {
        self.path = path
        self.mtu = mtu
        self.unavailable = unavailable
        self.figures = figures
    }

    /// The row's name: the path, and its MTU when it took one.
    var label: String { mtu.map { "\(path.rawValue) \($0)" } ?? path.rawValue }
}

/// A service path's own figures: its memory with 1 000 flows open and, passive, the kernel's drops.
struct ServiceFigures {
    let path: TunnelBenchPath
    var memory: [ProcessMemory] = []
    /// What the kernel counted on the passive service's capture socket over the path's runs.
    var kernel: DeviceKernelCounters?
    /// Its connections/s with and without asking each flow's program.
    var programLookup = ProgramLookupFigures()

    /// `tunnelvision stats --json`, as far as it is read here.
    struct StatsDocument: Decodable {
        struct Stats: Decodable { let shell: ShellStats }
        let stats: Stats
    }

    var medianResident: Double? { BenchStatistics.median(memory.map { Double($0.residentBytes) }) }

    /// The table's line for it.
    var line: String {
        var parts: [String] = []
        if let resident = medianResident {
            let flows = IPCBenchCommand.grouped(Int64(TunnelBenchTargets.openFlows))
            let target = TunnelBenchCommand.megabytes(TunnelBenchTargets.serviceResidentBytes)
            parts.append("resident \(TunnelBenchCommand.megabytes(UInt64(resident))) with \(flows) open flows (target ≤ \(target))")
        }
        if let kernel {
            let seen = kernel.queueDrops + kernel.datagramsRead
            let share = String(format: "%.3f %%", (kernel.dropShare ?? 0) * 100)
            let target = String(format: "%.1f %%", TunnelBenchTargets.passiveDropShare * 100)
            parts.append("kernel dropped \(kernel.queueDrops) of \(seen) packets (\(share), target ≤ \(target))")
        }
        if let line = programLookup.line { parts.append(line) }
        return "\(path.rawValue) service: " + parts.joined(separator: "; ")
    }
}

/// A service's connections/s with each flow's program asked and without (`--no-programs`).
struct ProgramLookupFigures {
    var with: [Double] = []
    var without: [Double] = []

    /// The medians' ratio, with over without; nil unless both were measured.
    var ratio: Double? {
        guard let with = BenchStatistics.median(with), let without = BenchStatistics.median(without), without > 0 else { return nil }
        return with / without
    }

    /// Its part of the service's line.
    var line: String? {
        guard let ratio, let with = BenchStatistics.median(with), let without = BenchStatistics.median(without) else { return nil }
        let target = String(format: "%.0f %%", TunnelBenchTargets.programLookupConnectionRatio * 100)
        return "program lookup: \(IPCBenchCommand.grouped(Int64(with.rounded()))) connections/s with it, "
            + "\(IPCBenchCommand.grouped(Int64(without.rounded()))) without, " + String(format: "%.1f %%", ratio * 100)
            + " (target ≥ \(target))"
    }
}

/// Everything one `bench tunnel` run measured, judged against the targets, as a table or JSON.
struct TunnelBenchResults {
    let options: TunnelBenchOptions
    var paths: [PathResult] = []
    /// One sample per run of the open-flows test.
    var memory: [ProcessMemory] = []
    var fullCapture = FullCaptureFigures()
    /// The routed and passive services' own figures.
    var services: [ServiceFigures] = []
    var notes: [String] = []
    var failures: [String] = []

    var direct: PathFigures {
        paths.first { $0.path == .direct && $0.unavailable == nil }?.figures ?? PathFigures()
    }

    var medianMemory: ProcessMemory? {
        guard let resident = BenchStatistics.median(memory.map { Double($0.residentBytes) }),
              let peak = BenchStatistics.median(memory.map { Double($0.peakResidentBytes) }) else { return nil }
        return ProcessMemory(residentBytes: UInt64(resident), peakResidentBytes: UInt64(peak))
    }

    /// The targets at each MTU the tunnel was measured at, in the order run; memory is judged
    /// at the MTU it was measured at (`memoryMTU`).
    var verdicts: [(mtu: Int, verdicts: [TunnelBenchTargets.Verdict])] {
        paths.compactMap { result in
            guard result.path == .tunnel, result.unavailable == nil, let mtu = result.mtu else { return nil }
            let judged = TunnelBenchTargets.verdicts(tunnel: PathComparison(result.figures, direct: direct), memory: medianMemory)
            return (mtu, judged.filter { mtu == options.memoryMTU || $0.measure != .residentMemory })
        }
    }

    // MARK: Table

    func table() -> String {
        let mtus = options.mtus.map(String.init).joined(separator: " and ")
        var lines = ["tvlab bench tunnel — single-stream TCP to \(Lab.serverIPv4) in the lab; MTU \(mtus) inside the relays "
                     + "(the number after a relay's name; direct is the lab's veth at 1500, with the kernel's offloads); "
                     + "median of \(options.repeats); iperf3 -t \(options.seconds), connections for \(options.seconds) s; "
                     + "tunnel capture: metadata", ""]
        var rows = [["path", "upload", "vs direct", "download", "vs direct", "rr median", "vs direct", "conn/s", "vs direct"]]
        for result in paths {
            guard result.unavailable == nil else {
                rows.append([result.label, result.unavailable ?? ""] + Array(repeating: "", count: 7))
                continue
            }
            let figures = result.figures
            let isDirect = result.path == .direct
            let versus = PathComparison(figures, direct: direct)
            rows.append([
                result.label,
                figures.medianUpload.map(TunnelBenchCommand.gigabits) ?? "—", isDirect ? "" : percent(versus.uploadRatio),
                figures.medianDownload.map(TunnelBenchCommand.gigabits) ?? "—", isDirect ? "" : percent(versus.downloadRatio),
                figures.medianRoundTrip.map { String(format: "%.1f µs", $0) } ?? "—", isDirect ? "" : added(versus.addedRoundTripMicroseconds),
                figures.medianConnectionRate.map { IPCBenchCommand.grouped(Int64($0.rounded())) } ?? "—",
                isDirect ? "" : percent(versus.connectionRateRatio),
            ])
        }
        lines += TextColumns.aligned(rows)
        if let memory = medianMemory {
            lines += ["", "tunnel at MTU \(options.memoryMTU) with \(IPCBenchCommand.grouped(Int64(TunnelBenchTargets.openFlows))) open flows: resident "
                      + TunnelBenchCommand.megabytes(memory.residentBytes) + " (VmRSS), peak "
                      + TunnelBenchCommand.megabytes(memory.peakResidentBytes) + " (VmHWM)"]
        }
        if let download = fullCapture.medianDownload, let disk = fullCapture.medianDiskWrite {
            lines += ["tunnel at MTU \(options.memoryMTU) with full capture: download " + TunnelBenchCommand.gigabits(download)
                      + " (" + TunnelBenchCommand.megabytes(UInt64(download / 8)) + "/s); the disk writes "
                      + TunnelBenchCommand.megabytes(UInt64(disk)) + "/s sequentially (1 GiB, one fsync); "
                      + String(format: "ratio %.2f of the disk's rate", fullCapture.ratioToDisk ?? .nan)]
        }
        for (mtu, verdicts) in verdicts {
            lines += ["", "targets for the tunnel at MTU \(mtu), capture at metadata detail:"]
            lines += TextColumns.aligned(verdicts.map { ["  " + Self.label($0.measure), value($0), target($0), verdict($0.met)] })
            let unmet = verdicts.filter { $0.met == false }.count
            let unjudged = verdicts.filter { $0.met == nil }.count
            lines.append((unmet == 0 ? "  all measured targets met" : "  \(unmet) of \(verdicts.count) targets NOT met")
                         + (unjudged == 0 ? "" : "; \(unjudged) not measured"))
        }
        if !verdicts.isEmpty, let ceiling = ceilingLine { lines.append(ceiling) }
        if !services.isEmpty { lines += [""] + services.map(\.line) }
        if !notes.isEmpty { lines += [""] + notes }
        if !failures.isEmpty { lines += ["", "failed:"] + failures.map { "  " + $0 } }
        return lines.joined(separator: "\n")
    }

    static func label(_ measure: TunnelBenchTargets.Measure) -> String {
        switch measure {
        case .upload: "upload throughput vs direct"
        case .download: "download throughput vs direct"
        case .roundTrip: "round-trip latency added at the median"
        case .connectionRate: "connections/s vs direct"
        case .residentMemory: "resident memory, \(IPCBenchCommand.grouped(Int64(TunnelBenchTargets.openFlows))) open flows"
        }
    }

    private func value(_ verdict: TunnelBenchTargets.Verdict) -> String {
        guard let value = verdict.value else { return "not measured" }
        return switch verdict.measure {
        case .upload, .download, .connectionRate: percent(value)
        case .roundTrip: added(value)
        case .residentMemory: TunnelBenchCommand.megabytes(UInt64(value))
        }
    }

    private func target(_ verdict: TunnelBenchTargets.Verdict) -> String {
        switch verdict.measure {
        case .upload, .download, .connectionRate: "≥ " + percent(verdict.target)
        case .roundTrip: String(format: "≤ %.0f µs", verdict.target)
        case .residentMemory: String(format: "≤ %.0f MB", verdict.target / 1e6)
        }
    }

    private func verdict(_ met: Bool?) -> String {
        switch met {
        case true?: "met"
        case false?: "NOT met"
        case nil: "—"
        }
    }

    /// What HAProxy reached, beside the targets: a relay that ends TCP does about twice direct's
    /// kernel work per byte and per connection, and its figures show what that costs here.
    private var ceilingLine: String? {
        guard let proxy = paths.first(where: { $0.path == .haproxy && $0.unavailable == nil }) else { return nil }
        let versus = PathComparison(proxy.figures, direct: direct)
        return "  for scale, haproxy (a relay that ends TCP, with no TUN) reached: upload \(percent(versus.uploadRatio)), "
            + "download \(percent(versus.downloadRatio)), connections/s \(percent(versus.connectionRateRatio)) of direct"
    }

    private func percent(_ ratio: Double?) -> String {
        ratio.map { String(format: "%.1f %%", $0 * 100) } ?? "—"
    }

    private func added(_ microseconds: Double?) -> String {
        microseconds.map { String(format: "%+.1f µs", $0) } ?? "—"
    }

    // MARK: JSON

    private func serviceJSON(_ service: ServiceFigures) -> [String: Any] {
        var object: [String: Any] = ["path": service.path.rawValue,
                                     "residentBytes": series(service.memory.map { Double($0.residentBytes) })]
        object["kernelDrops"] = service.kernel.map { $0.queueDrops as Any } ?? NSNull()
        object["kernelPackets"] = service.kernel.map { ($0.queueDrops + $0.datagramsRead) as Any } ?? NSNull()
        object["programLookup"] = [
            "connectionsPerSecondWith": series(service.programLookup.with),
            "connectionsPerSecondWithout": series(service.programLookup.without),
            "ratio": nullable(service.programLookup.ratio),
            "target": TunnelBenchTargets.programLookupConnectionRatio,
        ] as [String: Any]
        return object
    }

    func json() -> String {
        let direct = self.direct
        let pathObjects: [[String: Any]] = paths.map { result in
            guard result.unavailable == nil else {
                return ["path": result.path.rawValue, "mtu": result.mtu.map { $0 as Any } ?? NSNull(), "status": result.unavailable ?? ""]
            }
            let figures = result.figures
            let versus = PathComparison(figures, direct: direct)
            return [
                "path": result.path.rawValue,
                "mtu": result.mtu.map { $0 as Any } ?? NSNull(),
                "status": "measured",
                "uploadBitsPerSecond": series(figures.upload),
                "downloadBitsPerSecond": series(figures.download),
                "roundTripMedianMicroseconds": series(figures.roundTrip),
                "connectionsPerSecond": series(figures.connectionRate),
                "vsDirect": [
                    "upload": nullable(versus.uploadRatio),
                    "download": nullable(versus.downloadRatio),
                    "addedRoundTripMicroseconds": nullable(versus.addedRoundTripMicroseconds),
                    "connectionsPerSecond": nullable(versus.connectionRateRatio),
                ] as [String: Any],
            ]
        }
        var object: [String: Any] = [
            "mtus": options.mtus,
            "seconds": options.seconds,
            "repeat": options.repeats,
            "captureDetail": "metadata",
            "paths": pathObjects,
            "services": services.map(serviceJSON),
            "notes": notes,
            "failures": failures,
        ]
        if options.paths.contains(.tunnel) {
            object["tunnelMemory"] = [
                "mtu": options.memoryMTU,
                "openFlows": TunnelBenchTargets.openFlows,
                "residentBytes": series(memory.map { Double($0.residentBytes) }),
                "peakResidentBytes": series(memory.map { Double($0.peakResidentBytes) }),
            ] as [String: Any]
            object["fullCapture"] = [
                "mtu": options.memoryMTU,
                "downloadBitsPerSecond": series(fullCapture.download),
                "diskWriteBytesPerSecond": series(fullCapture.diskWrite),
                "ratioToDisk": nullable(fullCapture.ratioToDisk),
            ] as [String: Any]
        }
        let verdicts = self.verdicts
        if !verdicts.isEmpty {
            object["targets"] = verdicts.flatMap { mtu, verdicts in
                verdicts.map { verdict -> [String: Any] in
                    ["mtu": mtu, "measure": verdict.measure.rawValue, "value": nullable(verdict.value), "target": verdict.target,
                     "met": verdict.met.map { $0 as Any } ?? NSNull()]
                }
            }
            object["allTargetsMet"] = verdicts.allSatisfy { $0.verdicts.allSatisfy { $0.met == true } }
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    private func series(_ runs: [Double]) -> [String: Any] {
        ["runs": runs, "median": nullable(BenchStatistics.median(runs))]
    }

    private func nullable(_ value: Double?) -> Any {
        guard let value, value.isFinite else { return NSNull() }
        return value
    }
}
