#if canImport(Glibc)
import Glibc
#endif
import App
import Bench
import Foundation
import Linux
import Shared

/// `tvlab bench ui`'s last part: the tunnel's iperf3 throughput in a lab, rounds alternating
/// nothing open and pages plus live streams held open (bench_ui.py hold, through `tunnelvision ui`
/// on loopback) on the live Dashboard and the live Timeline of the very data directory the tunnel
/// writes, so the two share the machine's state as closely as one run allows. That directory starts
/// as a copy of the measured history's database, so the live Timeline merges into a million
/// connections; beside each iperf3 run, short connections at a steady pace (`net crr
/// --per-second`) give it new rows to merge — iperf3's own are two a run. They run in the rounds
/// with nothing open too, so the throughput's cost compares like with like.
enum UIBenchTunnel {
    struct Figures {
        var withoutPages: [Double] = []
        var withPages: [Double] = []

        /// How much throughput the pages cost, as a fraction of the rate without them (medians).
        var cost: Double? {
            guard let without = BenchStatistics.median(withoutPages), let with = BenchStatistics.median(withPages),
                  without > 0 else { return nil }
            return (without - with) / without
        }

        /// The spread of the runs with nothing open, as a fraction of their median: a cost
        /// smaller than this cannot be told from the machine's own variation.
        var noise: Double? {
            guard let low = withoutPages.min(), let high = withoutPages.max(),
                  let median = BenchStatistics.median(withoutPages), median > 0 else { return nil }
            return (high - low) / median
        }

        /// The verdict against the target, saying so when the runs vary more than the cost.
        var verdict: String {
            guard let cost, let noise else { return "no figure" }
            let met = cost <= costTarget ? "met" : "MISSED"
            return abs(cost) < noise ? met + String(format: ", within the runs' own spread of %.0f %%", noise * 100) : met
        }
    }

    static let costTarget = 0.02

    static func measure(_ options: UIBench.Options, history: String, tunnelvision: String, python: String,
                        scratch: String) throws(Failure) -> String {
        let tools = try TunnelBenchTools.locate(needTunnelvision: true)
        guard tools.iperf3 != nil else { throw Failure("iperf3 is not installed (apt-get install iperf3; scripts/bench-ui installs it)") }
        Interruption.install()
        unsetenv("SUDO_UID")
        unsetenv("SUDO_GID")
        Console.progress("building the lab for the tunnel's throughput…")
        let lab: Lab
        do { lab = try Lab() } catch { throw Failure("cannot build the lab: \(error)") }
        defer { lab.removeSayingFailures() }
        let iperfServer = try TunnelBenchCommand.startServer(lab, [tools.iperf3 ?? "iperf3", "-s", "-p", String(TunnelBenchClients.iperfPort)],
                                                             name: "iperf3 server", port: TunnelBenchClients.iperfPort,
                                                             errors: scratch + "/iperf3-server.err")
        defer { iperfServer.kill() }
        let echoServer = try TunnelBenchCommand.startServer(lab, [tools.tvlab, "net", "echo-server", "--port", String(TunnelBenchClients.echoPort)],
                                                            name: "echo server", port: TunnelBenchClients.echoPort,
                                                            errors: scratch + "/echo-server.err")
        defer { echoServer.kill() }
        let dataDirectory = scratch + "/tunnel-data"
        try copyHistory(from: history, to: dataDirectory)
        let shortConnections = scratch + "/short-connections.json"
        let route = TunnelBenchRoute.tunnel(lab: lab, tunnelvision: tunnelvision, dataDirectory: dataDirectory,
                                            detail: "metadata", mtu: TunnelAddressing.mtu,
                                            beside: [tools.tvlab, "net", "crr", "--host", Lab.serverIPv4, "--port",
                                                     String(TunnelBenchClients.echoPort), "--seconds", String(options.seconds),
                                                     "--per-second", String(options.connections), "--json"],
                                            besideOutput: shortConnections)
        let clients = TunnelBenchClients(tools: tools, directory: scratch, seconds: options.seconds)
        var download = Figures(), upload = Figures()
        var holds: [UIHoldReport] = []
        var shortMade = 0
        let holdCommand = [python, options.driver, "hold", "--binary", tunnelvision, "--data-dir", dataDirectory,
                           "--pages", String(options.pages), "--ready", scratch + "/hold.ready"]
        for round in 1...options.repeats {
            download.withoutPages.append(try clients.throughput(route, reverse: true))
            upload.withoutPages.append(try clients.throughput(route, reverse: false))
            Console.progress("round \(round)/\(options.repeats), no page: download \(TunnelBenchCommand.gigabits(download.withoutPages.last!)), "
                             + "upload \(TunnelBenchCommand.gigabits(upload.withoutPages.last!))")
            let holder = try startHolder(holdCommand, scratch: scratch)
            download.withPages.append(try clients.throughput(route, reverse: true))
            shortMade += try madeConnections(shortConnections)
            upload.withPages.append(try clients.throughput(route, reverse: false))
            shortMade += try madeConnections(shortConnections)
            holder.stop()
            guard let held = UIHoldReport.last(in: BenchProcess.readText(scratch + "/hold.out")) else {
                throw Failure("bench_ui.py hold said nothing readable: \(BenchProcess.readText(scratch + "/hold.err").suffix(1_500))")
            }
            holds.append(held)
            Console.progress("round \(round)/\(options.repeats), 2 pages + \(options.pages) streams: download \(TunnelBenchCommand.gigabits(download.withPages.last!)), "
                             + "upload \(TunnelBenchCommand.gigabits(upload.withPages.last!)); the Timeline merged \(held.applies.count) polls, "
                             + "\(held.applies.reduce(0) { $0 + $1.applied }) rows")
        }
        return report(download: download, upload: upload, options: options, holdCommand: holdCommand)
            + "\n" + liveReport(UILiveFigures(holds: holds), options: options, shortConnections: shortMade)
    }

    /// The history's database (and its WAL, if one is left) copied into a new data directory for
    /// the tunnel: the measured history stays as its note says, however many runs reuse it.
    private static func copyHistory(from history: String, to directory: String) throws(Failure) {
        guard mkdir(directory, 0o700) == 0 else { throw Failure("cannot create \(directory)", errno: errno) }
        Console.progress("copying the history's database into the tunnel's data directory…")
        for suffix in ["", "-wal"] {
            let source = history + "/" + DataDirectoryLayout.databaseFileName + suffix
            guard FileSystem.exists(source) else { continue }
            do {
                try FileManager.default.copyItem(atPath: source, toPath: directory + "/" + DataDirectoryLayout.databaseFileName + suffix)
            } catch { throw Failure("cannot copy \(source): \(error)") }
        }
    }

    /// How many short connections the last client's `net crr` made (its JSON report).
    private static func madeConnections(_ path: String) throws(Failure) -> Int {
        let text = BenchProcess.readText(path)
        guard let report = try? JSONDecoder().decode(NetClients.ConnectionRateReport.self, from: Data(text.utf8)) else {
            throw Failure("the short connections beside iperf3 said no report: \(text.suffix(500))")
        }
        return report.connections
    }

    /// Starts the pages and waits until every one shows the Dashboard.
    private static func startHolder(_ argv: [String], scratch: String) throws(Failure) -> BenchProcess {
        unlink(scratch + "/hold.ready")
        let holder = try BenchProcess(argv, name: "bench_ui.py hold", output: scratch + "/hold.out", errors: scratch + "/hold.err")
        do {
            try TunnelBenchRoute.waitUntil("the pages to open on the Dashboard", seconds: 120, process: holder) {
                BenchProcess.readText(scratch + "/hold.ready").hasPrefix("ready")
            }
        } catch {
            holder.stop()
            throw Failure("\(error): \(BenchProcess.readText(scratch + "/hold.err").suffix(1_500))")
        }
        return holder
    }

    static func report(download: Figures, upload: Figures, options: UIBench.Options, holdCommand: [String]) -> String {
        var lines = ["Tunnel throughput (iperf3 single stream through tunnelvision run in a lab, \(options.seconds) s each, "
                     + "\(options.repeats) rounds alternating; medians):",
                     "$ ip netns exec <lab host> tunnelvision run --data-dir T -- sh -c 'tvlab net crr --host \(Lab.serverIPv4) "
                     + "--port \(TunnelBenchClients.echoPort) --seconds \(options.seconds) --per-second \(options.connections) & iperf3 -c \(Lab.serverIPv4) -t \(options.seconds) [-R]; wait'",
                     "$ " + holdCommand.joined(separator: " ")
                     + "   (Chromium windows on #/dashboard and #/timeline + \(options.pages) /api/live streams)"]
        for (name, figures) in [("download", download), ("upload", upload)] {
            let without = BenchStatistics.median(figures.withoutPages) ?? .nan
            let with = BenchStatistics.median(figures.withPages) ?? .nan
            let cost = figures.cost ?? .nan
            lines.append(String(format: "  %-8@ nothing open %@ (%@)   2 pages + %d streams %@ (%@)   cost %+.2f %%  target ≤ %.0f %%  %@",
                                name, TunnelBenchCommand.gigabits(without), spread(figures.withoutPages), options.pages,
                                TunnelBenchCommand.gigabits(with), spread(figures.withPages),
                                cost * 100, costTarget * 100, figures.verdict))
        }
        lines.append("  (in brackets each condition's runs, lowest to highest)")
        return lines.joined(separator: "\n")
    }

    /// The live Timeline's merges and the ui server's CPU over every hold, beside their targets.
    static func liveReport(_ figures: UILiveFigures, options: UIBench.Options, shortConnections: Int) -> String {
        let durations = figures.durations, perSecond = figures.perSecondOfFlows, applies = figures.applies
        let shares = figures.serverCoreShares.map { $0 * 100 }
        let held = figures.holds.reduce(0) { $0 + $1.seconds }
        let ms = { (value: Double?) in value.map { String(format: "%.2f", $0) } ?? "?" }
        let percent = { (value: Double?) in value.map { String(format: "%.1f", $0) } ?? "?" }
        let sum = { (values: [Double]) in values.reduce(0, +) }
        return [
            "Live, the pages held \(String(format: "%.0f", held)) s in all over \(figures.holds.count) rounds while the tunnel ran "
                + "(\(shortConnections) short connections made meanwhile, \(options.connections)/s beside iperf3):",
            "  Timeline merges (tunnelvision.timeline.live-apply, script time): \(applies.count), \(applies.filter { $0.applied > 0 }.count) drew rows, "
                + "\(figures.rowsDrawn) rows in all; ms per merge median \(ms(BenchStatistics.median(durations))) max \(ms(durations.max())); "
                + "rows drawn per merge median \(ms(BenchStatistics.median(applies.map { Double($0.applied) }))) "
                + "max \(applies.map(\.applied).max() ?? 0) (of \(applies.map(\.received).max() ?? 0) answered at most); "
                + "rows drawn in a hold up to \(figures.holds.map { $0.applies.reduce(0) { $0 + $1.applied } }.max() ?? 0) "
                + "(the list keeps its loaded rows plus \(HistoryPolicy.liveRowsKept); the oldest leave past that)",
            "  a second's new flows merged in   later half of each hold median \(ms(figures.applyVerdict.value)) ms  "
                + "target ≤ \(String(format: "%.0f", UILiveFigures.applyMillisecondsPerSecondTarget)) ms  \(figures.applyVerdict.said)"
                + "   (whole holds: median \(ms(BenchStatistics.median(perSecond))) max \(ms(perSecond.max())) ms; "
                + "\(perSecond.count) merges that drew rows, each over the seconds since the one before)",
            "  its polls answered (GET /api/flows?since=…&limit=200): median \(ms(BenchStatistics.median(figures.holds.flatMap(\.pollAnswers)))) ms "
                + "max \(ms(figures.holds.flatMap(\.pollAnswers).max())) ms; GET /api/contact asked \(figures.holds.reduce(0) { $0 + $1.contactRequests }) times",
            "  ui server CPU, % of one core     median of rounds \(percent(BenchStatistics.median(shares)))  "
                + "(\(shares.map { String(format: "%.1f", $0) }.joined(separator: ", ")))  "
                + "target ≤ \(String(format: "%.0f", UILiveFigures.serverCoreShareTarget * 100)) %  \(figures.serverVerdict.said)",
            "  beside it, % of one core over the holds: Chromium \(percent(100 * sum(figures.holds.map(\.browserCPUSeconds)) / max(held, 1e-9))), "
                + "the hold's driver (its \(options.pages) stream readers, its WebDriver calls) \(percent(100 * sum(figures.holds.map(\.readersCPUSeconds)) / max(held, 1e-9))); "
                + "dashboard events per stream (last round) \(figures.holds.last?.streamEvents ?? []); "
                + "the Dashboard said: \(figures.holds.last?.dashboardStates.joined(separator: " / ") ?? "")",
        ].joined(separator: "\n")
    }

    /// The runs' lowest and highest rate, Gbit/s.
    static func spread(_ rates: [Double]) -> String {
        String(format: "%.2f–%.2f", (rates.min() ?? .nan) / 1e9, (rates.max() ?? .nan) / 1e9)
    }
}
