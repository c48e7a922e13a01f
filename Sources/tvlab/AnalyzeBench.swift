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

        let ours = Double(packets) / best
        let oursAlone = Double(packets) / bestAlone
        let theirs = Double(packets) / tsharkRun.seconds
        let ratio = ours / theirs
        let ratioAlone = oursAlone / theirs
        let met = ratio >= target
        let metAlone = ratioAlone >= oneWorkerTarget
        if json {
            print(String(format: #"{"packets":%d,"workers":%d,"analyzeSeconds":%.4f,"analyzePacketsPerSecond":%.0f,"oneWorkerSeconds":%.4f,"oneWorkerPacketsPerSecond":%.0f,"tsharkSeconds":%.4f,"tsharkPacketsPerSecond":%.0f,"ratio":%.2f,"oneWorkerRatio":%.2f,"target":%.0f,"met":%@,"oneWorkerTarget":%.0f,"oneWorkerMet":%@}"#,
                         packets, workers, best, ours, bestAlone, oursAlone, tsharkRun.seconds, theirs, ratio, ratioAlone,
                         target, met ? "true" : "false", oneWorkerTarget, metAlone ? "true" : "false"))
        } else {
            func line(_ label: String, _ seconds: Double, _ rate: Double) -> String {
                label.padding(toLength: 42, withPad: " ", startingAt: 0) + String(format: "%.3f s  %10.0f packets/s", seconds, rate)
            }
            print("""
                analyze over \(packets) packets of TLS conversations after DNS lookups (best of \(runs)):
                  \(line("tunnelvision analyze --json (\(workers) workers)", best, ours))  \(String(format: "%5.1f×", ratio))
                  \(line("tunnelvision analyze --json --workers 1", bestAlone, oursAlone))  \(String(format: "%5.1f×", ratioAlone))
                  \(line("tshark -Y tls.handshake …", tsharkRun.seconds, theirs))
                  target ≥ \(Int(target))× tshark with the default workers: \(met ? "met" : "NOT met")
                  target ≥ \(Int(oneWorkerTarget))× tshark with one worker: \(metAlone ? "met" : "NOT met")
                """)
        }
    }

    /// The best wall time of `runs` runs of `executable`.
    private static func fastest(_ executable: String, _ arguments: [String], label: String) throws(Failure) -> Double {
        var times: [Double] = []
        for run in 1...runs {
            Console.progress("running \(label) (\(run)/\(runs))…")
            let outcome = try Subprocess.run(executable, arguments)
            guard outcome.succeeded else { throw Failure("\(executable) analyze failed: \(outcome.summary)") }
            Console.progress(String(format: "  %.3f s", outcome.seconds))
            times.append(outcome.seconds)
        }
        return times.min() ?? .infinity
    }
}
