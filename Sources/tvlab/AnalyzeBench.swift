import Foundation

/// `tvlab bench analyze`: a capture of named TLS conversations after DNS lookups
/// (`HandshakeTraffic`), read by `tunnelvision analyze --json` and by tshark asked for every
/// handshake's server name, in one run so the figures compare. Target: analyze ≥ 20× tshark.
enum AnalyzeBench {
    static let seed: UInt64 = 1
    static let runs = 3
    static let target = 20.0
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
        var times: [Double] = []
        for run in 1...runs {
            Console.progress("running tunnelvision analyze --json (\(run)/\(runs))…")
            let outcome = try Subprocess.run(tunnelvision, ["analyze", capture, "--json"])
            guard outcome.succeeded else { throw Failure("\(tunnelvision) analyze failed: \(outcome.summary)") }
            Console.progress(String(format: "  %.3f s", outcome.seconds))
            times.append(outcome.seconds)
        }
        Console.progress("running tshark \(tsharkArguments.joined(separator: " ")) (once)…")
        let tsharkRun = try Subprocess.run(tshark, ["-r", capture] + tsharkArguments)
        guard tsharkRun.succeeded else { throw Failure("\(tshark) failed: \(tsharkRun.summary)") }
        Console.progress(String(format: "  %.3f s", tsharkRun.seconds))

        let best = times.min() ?? .infinity
        let ours = Double(packets) / best
        let theirs = Double(packets) / tsharkRun.seconds
        let ratio = ours / theirs
        let met = ratio >= target
        if json {
            print(String(format: #"{"packets":%d,"analyzeSeconds":%.4f,"analyzePacketsPerSecond":%.0f,"tsharkSeconds":%.4f,"tsharkPacketsPerSecond":%.0f,"ratio":%.2f,"target":%.0f,"met":%@}"#,
                         packets, best, ours, tsharkRun.seconds, theirs, ratio, target, met ? "true" : "false"))
        } else {
            print("""
                analyze over \(packets) packets of TLS conversations after DNS lookups (best of \(runs)):
                  tunnelvision analyze --json   \(String(format: "%.3f s  %10.0f packets/s", best, ours))
                  tshark -Y tls.handshake …      \(String(format: "%.3f s  %10.0f packets/s", tsharkRun.seconds, theirs))
                  ratio                          \(String(format: "%.1f×", ratio))   target ≥ \(Int(target))×  \(met ? "met" : "NOT met")
                """)
        }
    }
}
