#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Linux
import Shared

extension FaultSuite {
    static let flooders = 2_000
    static let silentClients = 200
    /// A round trip through the tunnel must stay well under this while the control socket is
    /// attacked (the probe saw the data path stall for 13–17 s).
    static let attackedRoundTripLimitMicroseconds = 200_000.0

    /// 2 000 local clients flood the control socket with unterminated lines and 200 never read
    /// their answers, while a download and round trips cross the tunnel: the download arrives
    /// intact, round trips stay fast, and `tunnelvision stats` still answers.
    func hostileControlClients() throws(Failure) {
        try DescriptorLimit.raiseToHard()
        let data = dataDirectory("hostile")
        let go = lab.path("hostile.go")
        let done = lab.path("hostile.done")
        let output = lab.path("hostile.bin")
        let roundTrips = lab.path("hostile.rr")
        let script = "while [ ! -e \(go) ]; do sleep 0.05; done; curl -sS -o \(output) \(lab.bigFileURL); "
            + "\(lab.tools.tvlab) net rr --host \(Lab.serverIPv4) --port \(FaultLab.echoPort) --count 2000 --json > \(roundTrips); "
            + "touch \(done); while [ -e \(done) ]; do sleep 0.05; done"
        let run = try lab.run(data: data, command: ["sh", "-c", script], name: "tunnelvision run (hostile clients)",
                              errors: lab.path("hostile.err"))
        defer { run.stop() }
        let socketPath = DataDirectoryLayout.controlSocket(in: URL(fileURLWithPath: data)).path
        guard FaultLab.eventually(within: 10, { FileSystem.exists(socketPath) }) else {
            record("hostile control clients", false, "the control socket never appeared")
            return
        }
        let clients = try HostileControlClients(path: socketPath, flooders: Self.flooders, silent: Self.silentClients)
        defer { clients.close() }
        _ = creat(go, 0o600)
        guard FaultLab.eventually(within: 120, { FileSystem.exists(done) || run.poll() != nil }), FileSystem.exists(done) else {
            record("hostile control clients", false, "the command did not finish: \(run.poll()?.summary ?? "timed out")")
            return
        }
        let asked = Stopwatch()
        let stats = try? ExternalCommand.run([lab.tunnelvision, "stats", "--data-dir", data, "--json"])
        let statsSeconds = asked.elapsedSeconds
        unlink(done)
        _ = try run.wait(seconds: 30)
        let lost = lab.bytesLost(downloadedTo: output)
        report.bytesLost += lost
        let figures = (try? JSONSerialization.jsonObject(with: Data(text(roundTrips).utf8))) as? [String: Any]
        let p99 = figures?["p99Microseconds"] as? Double
        let fast = p99.map { $0 < Self.attackedRoundTripLimitMicroseconds } ?? false
        record("\(clients.connected) hostile control clients during a download", lost == 0 && fast && stats != nil,
               "\(lost) bytes lost; round trip p99 \(p99.map { "\($0) µs" } ?? "not measured"); stats "
                   + (stats != nil ? "answered in \(String(format: "%.2f", statsSeconds)) s" : "did not answer"))
    }
}
