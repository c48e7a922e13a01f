#if canImport(Glibc)
import Glibc
#endif
import Bench
import Foundation
import Linux
import PacketTunnel
import Shared

/// The programs `bench tunnel` needs, found before anything is built. A relay that is missing
/// is a path skipped, never a failure.
struct TunnelBenchTools {
    let tvlab: String
    let tunnelvision: String?
    let iperf3: String?
    let pasta: String?
    let slirp4netns: String?
    let haproxy: String?

    static func locate(needTunnelvision: Bool) throws(Failure) -> TunnelBenchTools {
        let directory = try FileSystem.executableDirectory()
        let tunnelvision = directory + "/tunnelvision"
        if needTunnelvision && !FileSystem.isExecutableFile(tunnelvision) {
            throw Failure("no tunnelvision binary at \(tunnelvision); build it (swift build -c release --product tunnelvision)")
        }
        for program in ["ip", "ss"] where ExternalCommand.locate(program) == nil {
            throw Failure("\(program) is not installed (apt-get install iproute2)")
        }
        let slirpTools = ["slirp4netns", "unshare", "nsenter"].map(ExternalCommand.locate)
        return TunnelBenchTools(tvlab: directory + "/tvlab",
                                tunnelvision: FileSystem.isExecutableFile(tunnelvision) ? tunnelvision : nil,
                                iperf3: ExternalCommand.locate("iperf3"), pasta: ExternalCommand.locate("pasta"),
                                slirp4netns: slirpTools.contains(nil) ? nil : slirpTools[0], haproxy: ExternalCommand.locate("haproxy"))
    }

    /// Whether the relay of `path` is here.
    func installed(_ path: TunnelBenchPath) -> Bool {
        switch path {
        case .direct: true
        case .tunnel, .routed, .passive: tunnelvision != nil
        case .pasta: pasta != nil
        case .slirp4netns: slirp4netns != nil
        case .haproxy: haproxy != nil
        }
    }
}

/// One client run on a route, and the figure it reported. Clients write to files in the bench's
/// directory and are waited for by pid, with a time limit.
struct TunnelBenchClients {
    let tools: TunnelBenchTools
    let directory: String
    let seconds: Int

    static let echoPort: UInt16 = 7_007
    static let iperfPort: UInt16 = 5_201
    static let diskWriteBytes = 1 << 30

    /// iperf3's receiver rate in bit/s: client to server, or with `reverse` server to client.
    func throughput(_ route: TunnelBenchRoute, reverse: Bool) throws(Failure) -> Double {
        guard let iperf3 = tools.iperf3 else { throw Failure("iperf3 is not installed") }
        // -i 0: no per-second intervals, so the report stays small however long the test.
        let run = try client(route, [iperf3, "-c", route.server, "-p", String(Self.iperfPort), "-t", String(seconds),
                                     "-i", "0", "-J"] + (reverse ? ["-R"] : []),
                             name: "iperf3", limit: Double(seconds) + 60)
        switch IperfReport.read(run.output) {
        case .success(let report) where run.outcome.succeeded: return report.receivedBitsPerSecond
        case .success: throw Failure("iperf3: \(run.outcome.summary)\(run.errorTail)")
        case .failure(let problem): throw Failure("\(problem)\(run.errorTail)")
        }
    }

    /// The median of `tvlab net rr`'s 1-byte round trips, µs.
    func roundTrip(_ route: TunnelBenchRoute) throws(Failure) -> Double {
        let run = try client(route, [tools.tvlab, "net", "rr", "--host", route.server, "--port", String(Self.echoPort), "--json"],
                             name: "tvlab net rr", limit: 120)
        return try decode(NetClients.RoundTripReport.self, run).medianMicroseconds
    }

    /// `tvlab net crr`'s connections per second.
    func connectionRate(_ route: TunnelBenchRoute) throws(Failure) -> Double {
        let run = try client(route, [tools.tvlab, "net", "crr", "--host", route.server, "--port", String(Self.echoPort),
                                     "--seconds", String(seconds), "--json"],
                             name: "tvlab net crr", limit: Double(seconds) + 60)
        return try decode(NetClients.ConnectionRateReport.self, run).connectionsPerSecond
    }

    /// The resident memory of `tunnelvision run` (the pid spawned: `ip netns exec` execs it), or of
    /// the route's service, while `tvlab net hold` keeps `flows` connections open through it.
    /// How long a service holding the open flows is left before its memory is read: the flows of
    /// the runs before linger `closing` (`FlowTable.Config.closingLinger`), then the service gives
    /// back the room they grew at its next give-back (`HeapPolicy.giveBackInterval`).
    static let serviceSettleSeconds = Double(FlowTable.Config().closingLinger) / 1e9
        + Double(HeapPolicy.giveBackInterval.components.seconds) + 1

    func memoryWithOpenFlows(_ route: TunnelBenchRoute, flows: Int) throws(Failure) -> ProcessMemory {
        let ready = directory + "/hold.ready"
        let errors = directory + "/hold.err"
        unlink(ready)
        let process = try BenchProcess(route.command([tools.tvlab, "net", "hold", "--host", route.server, "--port", String(Self.echoPort),
                                                      "--count", String(flows), "--ready-file", ready]),
                                       name: "tvlab net hold", errors: errors)
        defer {
            unlink(ready)
            process.stop()
        }
        do {
            try TunnelBenchRoute.waitUntil("\(flows) connections to open", seconds: 120, process: process) { FileSystem.exists(ready) }
        } catch {
            throw Failure("\(error)\(Self.tail(of: errors))")
        }
        let measured = route.service?.pid ?? process.pid
        if route.service != nil {
            // A service has run the tests before: read it once their flows have left (the closing
            // linger) and it has given back what they grew (its next periodic give-back).
            Console.progress("waiting \(Int(Self.serviceSettleSeconds)) s for the service to settle…")
            let settled = Stopwatch()
            while settled.elapsedSeconds < Self.serviceSettleSeconds {
                try Interruption.check()
                if let outcome = process.poll() { throw Failure("tvlab net hold ended early (\(outcome.summary))\(Self.tail(of: errors))") }
                usleep(100_000)
            }
        }
        guard let memory = ProcessMemory.read(status: BenchProcess.readText("/proc/\(measured)/status")) else {
            throw Failure("cannot read /proc/\(measured)/status")
        }
        unlink(ready)
        let outcome = try process.wait(seconds: 60)
        guard outcome.succeeded else { throw Failure("tvlab net hold: \(outcome.summary)\(Self.tail(of: errors))") }
        return memory
    }

    /// Bytes per second of a sequential write of 1 GiB of zeros into `directory`, timed to the
    /// end of one fdatasync (what `dd bs=1M count=1024 conv=fdatasync` does); the file is removed.
    static func diskWriteRate(in directory: String) throws(Failure) -> Double {
        let path = directory + "/disk-write-test"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure("cannot create \(path)", errno: errno) }
        defer {
            close(descriptor)
            unlink(path)
        }
        let chunk = [UInt8](repeating: 0, count: 1 << 20)
        let stopwatch = Stopwatch()
        for _ in 0..<(diskWriteBytes / chunk.count) {
            if let failure = chunk.withUnsafeBytes({ FileDescriptor.writeAll(descriptor, $0) }) {
                throw Failure("cannot write \(path)", errno: failure)
            }
            try Interruption.check()
        }
        guard fdatasync(descriptor) == 0 else { throw Failure("cannot flush \(path)", errno: errno) }
        return Double(diskWriteBytes) / stopwatch.elapsedSeconds
    }

    private struct Run {
        let outcome: Subprocess.Outcome
        let output: Data
        /// The last lines of its standard error, ready to append to a message ("" when none).
        let errorTail: String
    }

    private func client(_ route: TunnelBenchRoute, _ argv: [String], name: String, limit: Double) throws(Failure) -> Run {
        let output = directory + "/client.out"
        let errors = directory + "/client.err"
        let process = try BenchProcess(route.command(argv), name: name, output: output, errors: errors)
        defer { process.stop() }
        let outcome = try process.wait(seconds: limit)
        return Run(outcome: outcome, output: FileManager.default.contents(atPath: output) ?? Data(), errorTail: Self.tail(of: errors))
    }

    private func decode<Report: Decodable>(_ type: Report.Type, _ run: Run) throws(Failure) -> Report {
        guard run.outcome.succeeded else { throw Failure("\(run.outcome.summary)\(run.errorTail)") }
        do { return try JSONDecoder().decode(type, from: run.output) } catch {
            throw Failure("unreadable report: \(String(decoding: run.output.prefix(200), as: UTF8.self))")
        }
    }

    /// What a failed client said, as " — line", or "": its own "tvlab: …" line when there is one
    /// (through the tunnel it is followed by tunnelvision's summary), else the last three lines.
    static func tail(of path: String) -> String {
        let lines = BenchProcess.readText(path).split(separator: "\n")
        if let own = lines.last(where: { $0.hasPrefix("tvlab: ") }) { return " — " + own.dropFirst("tvlab: ".count) }
        return lines.isEmpty ? "" : " — " + lines.suffix(3).joined(separator: " / ")
    }
}
