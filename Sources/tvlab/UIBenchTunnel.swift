#if canImport(Glibc)
import Glibc
#endif
import Bench
import Foundation
import Linux

/// `tvlab bench ui`'s last part: the tunnel's iperf3 throughput in a lab, rounds alternating
/// nothing open and a page plus live streams held open (bench_ui.py hold, through `tunnelvision ui`
/// on loopback) on the live Dashboard of the very data directory the tunnel writes, so the two share the
/// machine's state as closely as one run allows.
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

    static func measure(_ options: UIBench.Options, tunnelvision: String, python: String, scratch: String) throws(Failure) -> String {
        let tools = try TunnelBenchTools.locate(needTunnelvision: true)
        guard tools.iperf3 != nil else { throw Failure("iperf3 is not installed (apt-get install iperf3; scripts/bench-ui installs it)") }
        Interruption.install()
        unsetenv("SUDO_UID")
        unsetenv("SUDO_GID")
        Console.progress("building the lab for the tunnel's throughput…")
        let lab: Lab
        do { lab = try Lab() } catch { throw Failure("cannot build the lab: \(error)") }
        defer { lab.remove() }
        let iperfServer = try TunnelBenchCommand.startServer(lab, [tools.iperf3 ?? "iperf3", "-s", "-p", String(TunnelBenchClients.iperfPort)],
                                                             name: "iperf3 server", port: TunnelBenchClients.iperfPort,
                                                             errors: scratch + "/iperf3-server.err")
        defer { iperfServer.kill() }
        let dataDirectory = scratch + "/tunnel-data"
        guard mkdir(dataDirectory, 0o700) == 0 else { throw Failure("cannot create \(dataDirectory)", errno: errno) }
        let route = TunnelBenchRoute.tunnel(lab: lab, tunnelvision: tunnelvision, dataDirectory: dataDirectory,
                                            detail: "metadata", mtu: TunnelBenchOptions().mtu)
        let clients = TunnelBenchClients(tools: tools, directory: scratch, seconds: options.seconds)
        var download = Figures(), upload = Figures()
        var holdNotes: [String] = []
        let holdCommand = [python, options.driver, "hold", "--binary", tunnelvision, "--data-dir", dataDirectory,
                           "--pages", String(options.pages), "--ready", scratch + "/hold.ready"]
        for round in 1...options.repeats {
            download.withoutPages.append(try clients.throughput(route, reverse: true))
            upload.withoutPages.append(try clients.throughput(route, reverse: false))
            Console.progress("round \(round)/\(options.repeats), no page: download \(TunnelBenchCommand.gigabits(download.withoutPages.last!)), "
                             + "upload \(TunnelBenchCommand.gigabits(upload.withoutPages.last!))")
            let holder = try startHolder(holdCommand, scratch: scratch)
            download.withPages.append(try clients.throughput(route, reverse: true))
            upload.withPages.append(try clients.throughput(route, reverse: false))
            holder.stop()
            holdNotes.append(String(BenchProcess.readText(scratch + "/hold.out").split(separator: "\n").last ?? ""))
            Console.progress("round \(round)/\(options.repeats), 1 page + \(options.pages) streams: download \(TunnelBenchCommand.gigabits(download.withPages.last!)), "
                             + "upload \(TunnelBenchCommand.gigabits(upload.withPages.last!))")
        }
        return report(download: download, upload: upload, options: options, holdCommand: holdCommand, lastHold: holdNotes.last ?? "")
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

    static func report(download: Figures, upload: Figures, options: UIBench.Options, holdCommand: [String], lastHold: String) -> String {
        var lines = ["Tunnel throughput (iperf3 single stream through tunnelvision run in a lab, \(options.seconds) s each, "
                     + "\(options.repeats) rounds alternating; medians):",
                     "$ ip netns exec <lab host> tunnelvision run --data-dir T -- iperf3 -c \(Lab.serverIPv4) -t \(options.seconds) [-R]",
                     "$ " + holdCommand.joined(separator: " ") + "   (1 Chromium page on #/dashboard + \(options.pages) /api/live streams)"]
        for (name, figures) in [("download", download), ("upload", upload)] {
            let without = BenchStatistics.median(figures.withoutPages) ?? .nan
            let with = BenchStatistics.median(figures.withPages) ?? .nan
            let cost = figures.cost ?? .nan
            lines.append(String(format: "  %-8@ nothing open %@ (%@)   1 page + %d streams %@ (%@)   cost %+.2f %%  target ≤ %.0f %%  %@",
                                name, TunnelBenchCommand.gigabits(without), spread(figures.withoutPages), options.pages,
                                TunnelBenchCommand.gigabits(with), spread(figures.withPages),
                                cost * 100, costTarget * 100, figures.verdict))
        }
        lines.append("  (in brackets each condition's runs, lowest to highest)")
        if !lastHold.isEmpty { lines.append("  " + lastHold) }
        return lines.joined(separator: "\n")
    }

    /// The runs' lowest and highest rate, Gbit/s.
    static func spread(_ rates: [Double]) -> String {
        String(format: "%.2f–%.2f", (rates.min() ?? .nan) / 1e9, (rates.max() ?? .nan) / 1e9)
    }
}
