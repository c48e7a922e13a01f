#if canImport(Glibc)
import Glibc
#endif
import App
import Bench
import Foundation
import Linux
import Shared

/// `tvlab bench ui`: the web app's speed in one run — a history of a million connections (filled
/// by `HistoryBenchFill`, or one a previous run kept), the Timeline's first page in headless
/// Chromium and each screen's first API request against the real `tunnelvision ui`
/// (Tests/Browser/bench_ui.py measures), then the tunnel's throughput in a lab with no page open
/// against pages held open on its live Dashboard and live Timeline, alternating, with what the
/// Timeline's merges and the ui server cost meanwhile. Not a test: figures to read.
enum UIBench {
    struct Options: Equatable {
        var flows = 1_000_000
        var packets = 2_000_000
        var dataDirectory: String?
        var runs = 10
        var requests = 100
        var pages = 10
        var seconds = 5
        /// Short connections a second beside each iperf3 run: new rows for the live Timeline. The
        /// soak's pace (`net mix`); its 2 s poll answers at most 200 rows, so 100/s is its ceiling.
        var connections = MixedTraffic.shortConnectionsPerCycle
        var repeats = 3
        var driver = "Tests/Browser/bench_ui.py"
    }

    static let help = """
    tvlab bench ui [--flows N] [--packets M] [--data-dir D] [--runs R] [--requests Q]
                   [--pages P] [--seconds S] [--connections C] [--repeat K] [--driver FILE]

    The web app's speed (needs root, python3 with selenium, chromium and chromium-driver):
      1. a history of N connections (default 1000000) and M packets (default 2000000) over the
         past week, filled through FlowStore.write as 'bench history' fills it, into D — or D's
         history reused when a previous 'bench ui --data-dir D' filled it (D/tvlab-bench-ui.txt
         says what it holds); without --data-dir a temporary one, removed at the end;
      2. 'tunnelvision ui --json --no-open --data-dir D', logged in with its key;
      3. headless Chromium, R times (default 10): navigation to #/timeline until its first row
         and its first axis bar are in the page (performance.now(), median and max; target
         300 ms), and when /api/flows was asked and answered, to show where the time goes;
      4. GET of each screen's first request Q times (default 100; the export's summary Q/10,
         at least 3) over one keep-alive connection: p50 and p99 per path;
      5. in a lab, the tunnel's iperf3 download and upload (S seconds each, default 5), each
         beside C short connections a second (default 20; 'tvlab net crr --per-second'), K
         rounds (default 3) each with nothing open and then with two Chromium windows, the live
         Dashboard and the live Timeline of the tunnel's data directory (a copy of D's database:
         the Timeline merges into N connections), plus P more readers of its /api/live stream
         (default 10, 0 for none; ten Chromium windows crashed the renderer on a 2-core
         machine): medians and the cost (target ≤ 2 %); the Timeline's merges of its 2 s polls
         as timeline.js measures them (tunnelvision.timeline.live-apply): count, ms each, rows
         each, and script ms per second of new flows (target ≤ 50 ms, judged on the later
         half of each hold's merges: the list grows while the page is open, up to its loaded
         rows plus \(HistoryPolicy.liveRowsKept), and each merge looks its rows up in it; a hold lasts 2 S, so a larger
         S shows a page open longer);
         the ui server's CPU while held (target ≤ 3 % of one core).
    --driver FILE is the Python driver (default Tests/Browser/bench_ui.py, from the checkout's
    root: scripts/bench-ui runs it from there).
    """

    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        let list = try OptionList(arguments, command: "bench ui",
                                  valued: ["--flows", "--packets", "--data-dir", "--runs", "--requests", "--pages",
                                           "--seconds", "--connections", "--repeat", "--driver"], flags: [])
        var options = Options()
        options.flows = try list.integer("--flows", in: 1...Int.max) ?? options.flows
        options.packets = try list.integer("--packets", in: HistoryBenchFill.inspectedPackets...Int.max) ?? options.packets
        options.dataDirectory = list.values["--data-dir"]
        options.runs = try list.integer("--runs", in: 1...1_000) ?? options.runs
        options.requests = try list.integer("--requests", in: 1...100_000) ?? options.requests
        options.pages = try list.integer("--pages", in: 0...50) ?? options.pages
        options.seconds = try list.integer("--seconds", in: 1...600) ?? options.seconds
        options.connections = try list.integer("--connections", in: 1...1_000) ?? options.connections
        options.repeats = try list.integer("--repeat", in: 1...100) ?? options.repeats
        options.driver = list.values["--driver"] ?? options.driver
        return options
    }

    static func run(_ options: Options) async throws(Failure) {
        guard geteuid() == 0 else {
            throw Failure("bench ui must run as root: its tunnel part builds network namespaces (sudo scripts/bench-ui)")
        }
        let tunnelvision = try BenchCommand.locateTunnelvision(nil)
        guard let python = FileSystem.findOnPath("python3") else { throw Failure("python3 is not installed (apt-get install python3)") }
        guard FileSystem.exists(options.driver) else {
            throw Failure("no driver at \(options.driver); run from the checkout's root (scripts/bench-ui) or pass --driver FILE")
        }
        let scratch = try FileSystem.makeTemporaryDirectory(in: FileSystem.temporaryParent, prefix: "tvlab-ui-")
        defer { FileSystem.removeTree(scratch) }
        let history = options.dataDirectory ?? scratch + "/history"
        let filled = try await UIBenchHistory.fillOrReuse(history, flows: options.flows, packets: options.packets)
        Console.progress("measuring the Timeline and the API against tunnelvision ui --data-dir \(history)…")
        let browserCommand = [python, options.driver, "measure", "--binary", tunnelvision, "--data-dir", history,
                              "--flow-id", String(filled.inspectedFlowID), "--runs", String(options.runs),
                              "--requests", String(options.requests)]
        let report = try runDriver(browserCommand, scratch: scratch)
        print("tvlab bench ui — history of \(filled.flows) connections and \(filled.packets) packets in \(history)\(filled.reused ? " (reused)" : "")")
        print("$ " + browserCommand.joined(separator: " "))
        print(report)
        fflush(nil)   // the browser's figures show before the tunnel's minutes
        print(try UIBenchTunnel.measure(options, history: history, tunnelvision: tunnelvision, python: python, scratch: scratch))
    }

    /// Runs the driver to its end; its report, or a failure with the end of what it said on stderr.
    private static func runDriver(_ argv: [String], scratch: String) throws(Failure) -> String {
        let output = scratch + "/driver.out", errors = scratch + "/driver.err"
        let driver = try BenchProcess(argv, name: "bench_ui.py", output: output, errors: errors)
        let outcome = try driver.wait(seconds: 1_800)
        guard outcome.succeeded else {
            throw Failure("bench_ui.py measure failed (\(outcome.summary)): \(BenchProcess.readText(errors).suffix(2_000))")
        }
        return BenchProcess.readText(output).trimmingCharacters(in: .newlines)
    }
}
