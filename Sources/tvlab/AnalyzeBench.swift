import Fixtures
import Foundation
import Linux

/// `tvlab bench analyze`: a capture of named TLS conversations after DNS lookups
/// (`HandshakeTraffic`), read by `tunnelvision analyze --json` and by tshark asked for every
/// handshake's server name, in one run so the figures compare. Targets (issue "Every flow named,
/// every handshake read…"): analyze ≥ 25× tshark with its default workers, ≥ 18× with one.
enum AnalyzeBench {
    static let seed: UInt64 = 1
    static let runs = 3
    static let target = 25.0
    static let oneWorkerTarget = 18.0
    static let tsharkArguments = ["-Y", "tls.handshake", "-T", "fields", "-e", "tls.handshake.extensions_server_name"]

    static func run(packets: Int, tunnelvisionPath: String?, json: Bool) async throws(Failure) {
        let tunnelvision = try BenchCommand.locateTunnelvision(tunnelvisionPath)
        guard let tshark = FileSystem.findOnPath("tshark") else {
            throw Failure("tshark is not installed (it is the comparison); scripts/bench installs it, or: apt-get install tshark")
        }
        let directory = try FileSystem.makeTemporaryDirectory(in: FileSystem.temporaryParent, prefix: "tvlab-bench-analyze-")
        defer { FileSystem.removeTree(directory) }
        let capture = directory + "/handshakes.pcap"
        Console.progress("writing \(packets) packets of TLS conversations after DNS lookups…")
        try await SyntheticCapture.write(count: packets, seed: seed, snaplen: Arguments.maximumSnaplen,
                                         handshakes: true, to: capture, replace: false)
        // Written back to disk before any timing: the kernel writing 114 MB of dirty pages back
        // during the first timings took CPU from them and not from tshark's, timed last.
        sync()
        let workers = CaptureAnalysis.defaultWorkers
        let best = try fastest(tunnelvision, ["analyze", capture, "--json"], label: "tunnelvision analyze --json (\(workers) workers)")
        let bestAlone = workers == 1 ? best
            : try fastest(tunnelvision, ["analyze", capture, "--json", "--workers", "1"], label: "tunnelvision analyze --json --workers 1")
        Console.progress("running tshark \(tsharkArguments.joined(separator: " ")) (once)…")
        let tsharkRun = try Subprocess.run(tshark, ["-r", capture] + tsharkArguments)
        guard tsharkRun.succeeded else { throw Failure("\(tshark) failed: \(tsharkRun.summary)") }
        Console.progress(String(format: "  %.3f s", tsharkRun.seconds))

        let ours = Double(packets) / best.seconds
        let oursAlone = Double(packets) / bestAlone.seconds
        let theirs = Double(packets) / tsharkRun.seconds
        let ratio = ours / theirs
        let ratioAlone = oursAlone / theirs
        // How much of the other processors the default workers had: with the machine's other load
        // on them, several workers run little faster than one, which is what moves `ratio` most.
        let speedup = bestAlone.seconds / best.seconds
        let met = ratio >= target
        let metAlone = ratioAlone >= oneWorkerTarget
        if json {
            // A CPU time nobody could account for is null, never a number.
            func cpu(_ run: Subprocess.Outcome) -> String { run.cpuSeconds.map { String(format: "%.4f", $0) } ?? "null" }
            print(String(format: #"{"packets":%d,"workers":%d,"analyzeSeconds":%.4f,"analyzeCPUSeconds":%@,"analyzePacketsPerSecond":%.0f,"oneWorkerSeconds":%.4f,"oneWorkerCPUSeconds":%@,"oneWorkerPacketsPerSecond":%.0f,"workerSpeedup":%.2f,"tsharkSeconds":%.4f,"tsharkCPUSeconds":%@,"tsharkPacketsPerSecond":%.0f,"ratio":%.2f,"oneWorkerRatio":%.2f,"target":%.0f,"met":%@,"oneWorkerTarget":%.0f,"oneWorkerMet":%@}"#,
                         packets, workers, best.seconds, cpu(best), ours, bestAlone.seconds, cpu(bestAlone), oursAlone,
                         speedup, tsharkRun.seconds, cpu(tsharkRun), theirs, ratio, ratioAlone,
                         target, met ? "true" : "false", oneWorkerTarget, metAlone ? "true" : "false"))
        } else {
            func line(_ label: String, _ run: Subprocess.Outcome, _ rate: Double, _ ratio: Double?) -> String {
                label.padding(toLength: 42, withPad: " ", startingAt: 0)
                    + String(format: "%.3f s  %10.0f packets/s  ", run.seconds, rate)
                    + (ratio.map { String(format: "%5.1f×", $0) } ?? "      ")
                    + (run.cpuSeconds.map { String(format: "  CPU %.3f s", $0) } ?? "")
            }
            let speedupLine = workers == 1 ? ""
                : String(format: "\n  %d workers ran %.2f× as fast as one (on %d processors)", workers, speedup, workers)
            print("""
                analyze over \(packets) packets of TLS conversations after DNS lookups (best of \(runs)):
                  \(line("tunnelvision analyze --json (\(workers) workers)", best, ours, ratio))
                  \(line("tunnelvision analyze --json --workers 1", bestAlone, oursAlone, ratioAlone))
                  \(line("tshark -Y tls.handshake …", tsharkRun, theirs, nil))\(speedupLine)
                  target ≥ \(Int(target))× tshark with the default workers: \(met ? "met" : "NOT met")
                  target ≥ \(Int(oneWorkerTarget))× tshark with one worker: \(metAlone ? "met" : "NOT met")
                """)
        }
    }

    /// The run of `runs` runs of `executable` with the best wall time.
    private static func fastest(_ executable: String, _ arguments: [String], label: String) throws(Failure) -> Subprocess.Outcome {
        var fastest: Subprocess.Outcome?
        for run in 1...runs {
            Console.progress("running \(label) (\(run)/\(runs))…")
            let outcome = try Subprocess.run(executable, arguments)
            guard outcome.succeeded else { throw Failure("\(executable) analyze failed: \(outcome.summary)") }
            Console.progress(String(format: "  %.3f s", outcome.seconds))
            if outcome.seconds < fastest?.seconds ?? .infinity { fastest = outcome }
        }
        return fastest!
    }
}
