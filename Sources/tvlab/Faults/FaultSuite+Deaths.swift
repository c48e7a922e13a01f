#if canImport(Glibc)
import Glibc
#endif
import Linux

extension FaultSuite {
    /// The tunnel killed with SIGKILL mid-download: the command and all it started end at once,
    /// and the next run sweeps what the dead one left and says so.
    func killedMidDownload() throws(Failure) {
        let data = dataDirectory("kill9")
        let output = lab.path("kill9.bin")
        let run = try lab.run(data: data, command: ["curl", "-sS", "--limit-rate", "4M", "-o", output, lab.bigFileURL],
                              name: "tunnelvision run (kill -9)", errors: lab.path("kill9.err"))
        guard FaultLab.eventually(within: 10, { !FaultLab.processes(startingWith: "curl -sS --limit-rate 4M -o \(output)").isEmpty && FileSystem.exists(output) }) else {
            run.stop()
            record("kill -9 mid-download", false, "the download never started")
            return
        }
        usleep(1_000_000)
        let namespaces = try FaultLab.tunnelNamespaces().filter { $0.hasPrefix("tvrun-\(run.pid)-") }
        let killed = Stopwatch()
        kill(run.pid, SIGKILL)
        _ = try run.wait(seconds: 5)
        let commandGone = FaultLab.eventually(within: 2) { FaultLab.processes(startingWith: "curl -sS --limit-rate 4M -o \(output)").isEmpty }
        let seconds = killed.elapsedSeconds
        FaultLab.processes(startingWith: "curl -sS --limit-rate 4M -o \(output)").forEach { kill($0, SIGKILL) }

        let errors = lab.path("kill9-next.err")
        let next = try lab.run(data: data, command: ["true"], name: "tunnelvision run (after kill -9)", errors: errors)
        let nextOutcome = try next.wait(seconds: 30)
        let notice = text(errors).split(separator: "\n").first { $0.contains("unclean stop") }
        let leftNamespaces = try FaultLab.tunnelNamespaces().filter { $0.hasPrefix("tvrun-\(run.pid)-") }
        let leftDirectories = namespaces.filter { FileSystem.exists("/etc/netns/\($0)") }
        record("kill -9 tunnelvision mid-download", commandGone && nextOutcome.succeeded && notice != nil
                   && leftNamespaces.isEmpty && leftDirectories.isEmpty,
               (commandGone ? "curl gone \(String(format: "%.2f", seconds)) s after the kill" : "curl outlived the tunnel")
                   + "; next run: \(nextOutcome.summary), " + (notice.map { "\"\($0)\"" } ?? "no unclean-stop notice")
                   + (leftNamespaces.isEmpty && leftDirectories.isEmpty ? "" : "; left behind: \(leftNamespaces + leftDirectories)"))
    }

    /// The tunnel's device deleted under a running command: `run` ends visibly (non-zero, with
    /// the reason), and the command goes with it.
    func deviceDeleted() throws(Failure) {
        let marker = FaultLab.sleepMarker(31340)
        let errors = lab.path("device.err")
        let run = try lab.run(data: dataDirectory("device"), command: ["sleep", marker], name: "tunnelvision run (device deleted)",
                              errors: errors)
        defer { run.stop() }
        guard FaultLab.eventually(within: 10, { !FaultLab.processes(startingWith: "sleep \(marker)").isEmpty }),
              let command = FaultLab.processes(startingWith: "sleep \(marker)").first else {
            record("the TUN device deleted", false, "the command never started")
            return
        }
        // The tunnel's namespace is named only inside run's own mount namespace (made by `ip netns
        // exec` for the lab's host), so it is entered through the command that lives in it.
        let inside = ["nsenter", "-t", String(command), "-n", "--"]
        let links = (try? ExternalCommand.run(inside + ["ip", "-o", "link", "show"]))?.standardOutput ?? ""
        guard let device = links.split(separator: "\n").compactMap({ line -> String? in
            let name = line.split(separator: ":").dropFirst().first?.trimmingCharacters(in: .whitespaces)
            return name == "lo" ? nil : name.map { String($0.split(separator: "@")[0]) }
        }).first else {
            record("the TUN device deleted", false, "no device beside the command: \(links.debugDescription)")
            return
        }
        _ = try? ExternalCommand.run(inside + ["ip", "link", "del", device])
        let ended = FaultLab.eventually(within: 5) { run.poll() != nil }
        let outcome = run.poll()
        let gone = FaultLab.eventually(within: 2) { FaultLab.processes(startingWith: "sleep \(marker)").isEmpty }
        let reason = text(errors).split(separator: "\n").first { $0.contains("tunnel stopped") || $0.contains("TUN device") }
            .map(String.init) ?? "no reason given"
        record("the TUN device deleted under a running command", ended && outcome?.succeeded == false && gone,
               ended ? "run: \(outcome?.summary ?? ""), \"\(reason)\"" + (gone ? "" : "; the command outlived it")
                     : "run still going 5 s after its device was deleted")
        FaultLab.processes(startingWith: "sleep \(marker)").forEach { kill($0, SIGKILL) }
    }
}
