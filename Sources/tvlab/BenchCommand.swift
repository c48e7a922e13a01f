import Foundation

/// `tvlab bench packets`: one capture, three ways to read it — the `tunnelvision packets`
/// command, tshark, and the bare parser — measured in one run so the figures compare.
enum BenchCommand {
    static let seed: UInt64 = 1
    static let tunnelvisionRuns = 3
    static let bareParseSeconds = 1.0
    static let tsharkArguments = ["-T", "fields", "-e", "ip.src", "-e", "ipv6.src", "-e", "ip.dst", "-e", "ipv6.dst",
                                  "-e", "tcp.srcport", "-e", "udp.srcport"]

    static func run(_ options: BenchOptions) async throws(Failure) {
        // Both programs are found before any capture is written.
        let tunnelvision = try locateTunnelvision(options.tunnelvision)
        guard let tshark = FileSystem.findOnPath("tshark") else {
            throw Failure("tshark is not installed (it is the comparison); scripts/bench installs it, or: apt-get install tshark")
        }
        let directory = try FileSystem.makeTemporaryDirectory(in: FileSystem.temporaryParent, prefix: "tvlab-bench-")
        defer {
            if options.keep { Console.progress("kept \(directory)") } else { FileSystem.removeTree(directory) }
        }
        let capture = directory + "/bench.pcap"

        Console.progress("writing capture of \(options.packets) packets (seed \(seed))…")
        let writing = Stopwatch()
        try await SyntheticCapture.write(count: options.packets, seed: seed,
                                         snaplen: Arguments.maximumSnaplen, to: capture, replace: false)
        Console.progress(String(format: "  written in %.2f s", writing.elapsedSeconds) + ": \(capture)")

        var runs: [Double] = []
        for run in 1...tunnelvisionRuns {
            Console.progress("running tunnelvision packets (\(run)/\(tunnelvisionRuns))…")
            let outcome = try Subprocess.run(tunnelvision, ["packets", capture])
            guard outcome.succeeded else { throw Failure("\(tunnelvision) packets \(capture) failed: \(outcome.summary)") }
            Console.progress(String(format: "  %.3f s", outcome.seconds))
            runs.append(outcome.seconds)
        }

        Console.progress("running tshark (once; it is slow)…")
        let tsharkOutcome = try Subprocess.run(tshark, ["-r", capture] + tsharkArguments)
        guard tsharkOutcome.succeeded else { throw Failure("\(tshark) -r \(capture) failed: \(tsharkOutcome.summary)") }
        Console.progress(String(format: "  %.3f s", tsharkOutcome.seconds))

        Console.progress("loading the capture into memory…")
        let loaded = try BareParse.load(capture)
        guard loaded.spans.count == options.packets else {
            throw Failure("the capture holds \(loaded.spans.count) records, not \(options.packets)")
        }
        Console.progress("bare parse: counting allocations over one pass, then timing passes for ≥ \(bareParseSeconds) s…")
        let bare = BareParse.measure(loaded, minimumSeconds: bareParseSeconds)
        Console.progress(String(format: "  %d passes in %.3f s (checksum %d)", bare.passes, bare.seconds, bare.checksum))
        if bare.malformed > 0 {
            Console.error("warning: the parser refused \(bare.malformed) of the synthetic packets")
        }

        let results = BenchResults(packets: options.packets, seed: seed, tunnelvisionPath: tunnelvision,
                                   tunnelvisionRuns: runs, tsharkSeconds: tsharkOutcome.seconds, bare: bare,
                                   keptDirectory: options.keep ? directory : nil)
        print(options.json ? results.json() : results.table())
    }

    /// `--tunnelvision PATH` (a bare name is looked up on $PATH), else the binary next to tvlab.
    static func locateTunnelvision(_ given: String?) throws(Failure) -> String {
        if let given {
            let path = given.contains("/") ? given : (FileSystem.findOnPath(given) ?? given)
            guard FileSystem.isExecutableFile(path) else { throw Failure("--tunnelvision \(given): not an executable file") }
            return path
        }
        let path = try FileSystem.executableDirectory() + "/tunnelvision"
        guard FileSystem.isExecutableFile(path) else {
            throw Failure("no tunnelvision binary at \(path); build it (swift build -c release --product tunnelvision) or pass --tunnelvision PATH")
        }
        return path
    }
}
