#if canImport(Glibc)
import Glibc
#endif
import Bench
import Foundation
import Linux

/// `tvlab soak`: one `tunnelvision run` carrying mixed traffic (`tvlab net mix`) for S seconds,
/// its resident memory sampled every `sampleSeconds`; prints a line a minute and, at the end,
/// memory at the start and the end (medians of the second and the last fifth of the samples: the
/// first is warm-up), its peak, and what
/// the traffic did and failed to do. Memory is flat when the end is within `flatTolerance` of the start.
enum SoakCommand {
    static let sampleSeconds = 10.0
    static let udpPort = 7008
    static let fileName = "mid.bin"
    static let fileBytes = 1 << 20
    /// Growth from the start's memory to the end's still called flat: allocator noise and the
    /// history's page cache settle in the first minutes.
    static let flatTolerance = 0.10

    static func run(seconds: Int, json: Bool) throws(Failure) {
        guard geteuid() == 0 else { throw Failure("soak must run as root: it builds network namespaces (sudo tvlab soak)") }
        Interruption.install()
        unsetenv("SUDO_UID")
        unsetenv("SUDO_GID")
        let lab = try FaultLab(bigFileBytes: fileBytes)
        defer { lab.close() }
        let www = lab.directory + "/www/" + fileName
        try FaultLab.writePattern(to: www, bytes: fileBytes)
        let udp = try BenchProcess(lab.lab.server.command(LabScripts.udpEcho(bind: Lab.serverIPv4, port: udpPort)), name: "udp echo")
        defer { udp.kill() }
        let output = lab.path("mix.out")
        let errors = lab.path("mix.err")
        let run = try lab.run(data: lab.path("data-soak"), ["--capture-detail", "metadata"],
                              command: [lab.tools.tvlab, "net", "mix", "--host", Lab.serverIPv4, "--port", String(FaultLab.echoPort),
                                        "--http-port", String(FaultLab.httpPort), "--path", "/" + fileName,
                                        "--udp-port", String(udpPort), "--seconds", String(seconds)],
                              name: "tunnelvision run (soak)", output: output, errors: errors)
        defer { run.stop() }
        var samples: [UInt64] = []
        let clock = Stopwatch()
        while run.poll() == nil {
            try Interruption.check()
            // Not while the process is still becoming the tunnel (exec) or already leaving (exit).
            if clock.elapsedSeconds >= sampleSeconds, let memory = ProcessMemory.read(status: FaultLab.readText("/proc/\(run.pid)/status")),
               memory.residentBytes > 0 {
                samples.append(memory.residentBytes)
                if samples.count % Int(60 / sampleSeconds) == 0 {
                    Console.progress("soak: \(Int(clock.elapsedSeconds / 60)) min, tunnel \(FaultSuiteReport.mebibytes(memory.residentBytes))")
                }
            }
            _ = FaultLab.eventually(within: sampleSeconds) { run.poll() != nil }
        }
        let outcome = try run.wait(seconds: 60)
        let tally = FaultLab.readText(output).split(separator: "\n").last.map(String.init) ?? "{}"
        // The first fifth is warm-up (the history's cache, the allocator's arenas filling); the
        // start is the second fifth.
        let fifth = max(1, samples.count / 5)
        let start = BenchStatistics.median(samples.dropFirst(samples.count >= 10 ? fifth : 0).prefix(fifth).map { Double($0) }) ?? 0
        let end = BenchStatistics.median(samples.suffix(fifth).map { Double($0) }) ?? 0
        let peak = samples.max() ?? 0
        let flat = start > 0 && end <= start * (1 + flatTolerance)
        let summary = "soak of \(seconds) s: run \(outcome.summary); tunnel memory start \(FaultSuiteReport.mebibytes(UInt64(start))), "
            + "end \(FaultSuiteReport.mebibytes(UInt64(end))), peak \(FaultSuiteReport.mebibytes(peak)) — "
            + (flat ? "flat" : "GROWING") + "\ntraffic: \(tally)"
        if json {
            print("{\"seconds\":\(seconds),\"startBytes\":\(UInt64(start)),\"endBytes\":\(UInt64(end)),\"peakBytes\":\(peak),"
                  + "\"flat\":\(flat),\"samples\":\(samples.count),\"traffic\":\(tally)}")
        } else {
            print(summary)
        }
        if !flat || !outcome.succeeded { throw Failure("the soak failed: \(flat ? "" : "memory grew; ")run \(outcome.summary) \(FaultLab.readText(errors).suffix(400))") }
    }
}
