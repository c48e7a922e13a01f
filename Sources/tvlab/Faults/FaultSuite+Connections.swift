#if canImport(Glibc)
import Glibc
#endif
import Bench
import Linux

extension FaultSuite {
    /// How long holding may take to open every connection (10 000 sequential connects through the
    /// tunnel on a loaded 2-core machine take well under this).
    static let holdOpenSeconds = 240.0
    /// Longer than the tunnel's one-second tick, so expiry and eviction get their chance to cut.
    static let holdPauseSeconds = 3.0

    /// N connections opened through one tunnel, each proven by a round trip, held all at once
    /// past a few ticks, then used again: every one must answer.
    func holdConnections() throws(Failure) {
        let count = options.connectionCount
        let ready = lab.path("hold.ready")
        let output = lab.path("hold.out")
        let errors = lab.path("hold.err")
        let run = try lab.run(data: dataDirectory("hold"), ["--no-capture"],
                              command: [lab.tools.tvlab, "net", "hold", "--host", Lab.serverIPv4, "--port", String(FaultLab.echoPort),
                                        "--count", String(count), "--ready-file", ready, "--verify"],
                              name: "tunnelvision run (hold)", output: output, errors: errors)
        defer { run.stop() }
        let opened = FaultLab.eventually(within: Self.holdOpenSeconds) { FileSystem.exists(ready) || run.poll() != nil }
        guard opened, FileSystem.exists(ready) else {
            record("\(count) connections held", false, "not all opened: \(run.poll()?.summary ?? "timed out") \(text(errors).suffix(300))")
            return
        }
        report.connectionsHeld = count
        usleep(UInt32(Self.holdPauseSeconds * 1_000_000))
        report.peakResidentBytes = ProcessMemory.read(status: FaultLab.readText("/proc/\(run.pid)/status"))?.peakResidentBytes
        unlink(ready)
        let outcome = try run.wait(seconds: 120)
        let verified = text(output).split(separator: "\n").last { $0.hasPrefix("verified ") }
        let answered = verified.flatMap { Int($0.split(separator: " ")[1]) } ?? 0
        report.connectionsWorkingAfter = answered
        record("\(count) connections held, then used again", answered == count && outcome.succeeded,
               "\(answered) of \(count) answered after \(Int(Self.holdPauseSeconds)) s; run: \(outcome.summary)"
                   + (report.peakResidentBytes.map { "; tunnel peak \(FaultSuiteReport.mebibytes($0))" } ?? ""))
    }
}
