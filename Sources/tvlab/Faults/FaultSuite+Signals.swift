#if canImport(Glibc)
import Glibc
#endif
import Linux

extension FaultSuite {
    /// The wrapped command behaves as it would without the tunnel: `timeout` stops it, a TERM or
    /// HUP to `run` reaches it and `run` reports 128 + N, and a pipeline dies of SIGPIPE quietly.
    func signals() throws(Failure) {
        try timeoutStopsTheCommand()
        for (signal, name) in [(SIGTERM, "TERM"), (SIGHUP, "HUP")] { try signalReachesTheCommand(signal, name: name) }
        try brokenPipeIsQuiet()
    }

    private func timeoutStopsTheCommand() throws(Failure) {
        let marker = FaultLab.sleepMarker(31337)
        let run = try lab.run(data: dataDirectory("timeout"), command: ["sleep", marker], name: "timeout tunnelvision run",
                              errors: lab.path("timeout.err"), prefix: ["timeout", "2"])
        let outcome = try run.wait(seconds: 20)
        let gone = FaultLab.eventually(within: 1) { FaultLab.processes(startingWith: "sleep \(marker)").isEmpty }
        record("timeout 2 tunnelvision run -- sleep", outcome.exitStatus == 124 && outcome.seconds < 6 && gone,
               "\(outcome.summary) after \(String(format: "%.1f", outcome.seconds)) s (timeout's 124 expected)"
                   + (gone ? "" : "; sleep still running"))
        FaultLab.processes(startingWith: "sleep \(marker)").forEach { kill($0, SIGKILL) }
    }

    private func signalReachesTheCommand(_ signal: Int32, name: String) throws(Failure) {
        let marker = FaultLab.sleepMarker(31330 + Int(signal))
        let run = try lab.run(data: dataDirectory("signal-\(name)"), command: ["sleep", marker], name: "tunnelvision run (\(name))",
                              errors: lab.path("signal.err"))
        guard FaultLab.eventually(within: 10, { !FaultLab.processes(startingWith: "sleep \(marker)").isEmpty }) else {
            run.stop()
            record("kill -\(name) tunnelvision run", false, "the command never started")
            return
        }
        kill(run.pid, signal)
        let outcome = try run.wait(seconds: 20)
        let expected = 128 + signal
        record("kill -\(name) tunnelvision run", outcome.exitStatus == expected,
               "\(outcome.summary) (\(expected) expected: the command died of SIG\(name))")
        FaultLab.processes(startingWith: "sleep \(marker)").forEach { kill($0, SIGKILL) }
    }

    private func brokenPipeIsQuiet() throws(Failure) {
        let output = lab.path("yes.out")
        let errors = lab.path("yes.err")
        let run = try lab.run(data: dataDirectory("pipe"), command: ["bash", "-c", "yes | head -1"], name: "tunnelvision run (yes | head)",
                              output: output, errors: errors)
        let outcome = try run.wait(seconds: 20)
        let complaint = ["Broken pipe", "write error"].first { text(errors).contains($0) }
        record("tunnelvision run -- bash -c 'yes | head -1'", outcome.exitStatus == 0 && text(output) == "y\n" && complaint == nil,
               "\(outcome.summary), printed \(text(output).debugDescription)" + (complaint.map { ", stderr says \"\($0)\"" } ?? ""))
    }
}
