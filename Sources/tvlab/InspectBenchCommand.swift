#if canImport(Glibc)
import Glibc
#endif
import Bench
import Foundation
import Linux

struct InspectBenchOptions: Equatable {
    /// The large file's size, MiB: a few seconds per download on the slowest path.
    var largeMiB = 256
    /// Sequential fresh TLS connections per connection-rate run.
    var connections = 200
    /// Runs per figure; the report shows their median, min and max.
    var repeats = 3
    var json = false
}

/// `tvlab bench inspect`: one HTTPS client, three paths — `tunnelvision run --inspect`, `run`
/// without inspection, and mitmdump as its HTTPS proxy — in one lab, in one run: single-stream
/// download throughput and new TLS connections per second, and the leaves the inspecting tunnel
/// minted for its one host. The runs of each figure alternate between the paths, so a change in
/// the machine's load reaches all three alike.
enum InspectBenchCommand {
    static func run(_ options: InspectBenchOptions) throws(Failure) {
        guard geteuid() == 0 else {
            throw Failure("bench inspect must run as root: it builds network namespaces and runs tunnelvision run (sudo tvlab bench inspect)")
        }
        let tunnelvision = try BenchCommand.locateTunnelvision(nil)
        for program in ["ip", "ss", "curl", "nginx", "openssl"] where ExternalCommand.locate(program) == nil {
            throw Failure("\(program) is not installed (apt-get install iproute2 curl nginx openssl)")
        }
        Interruption.install()
        // Behind sudo, `tunnelvision run` would drop its command to the invoking user; the clients
        // run as root on every path, and must write into the bench's private directory.
        unsetenv("SUDO_UID")
        unsetenv("SUDO_GID")
        do throws(Failure) {
            let results = try measure(options, tunnelvision: tunnelvision)
            print(options.json ? results.json() : results.table())
            if !results.failures.isEmpty { throw Failure("\(results.failures.count) measurement(s) failed; see above") }
        } catch {
            guard let signal = Interruption.receivedSignal else { throw error }
            Console.error("interrupted by signal \(signal); the lab and every program started for it are gone")
            exit(128 + signal)
        }
    }

    private static func measure(_ options: InspectBenchOptions, tunnelvision: String) throws(Failure) -> InspectBenchResults {
        let directory = try FileSystem.makeTemporaryDirectory(in: FileSystem.temporaryParent, prefix: "tvlab-inspect-")
        defer { FileSystem.removeTree(directory) }
        var results = InspectBenchResults(options: options, load: BenchProcess.readText("/proc/loadavg"))
        let largeBytes = options.largeMiB << 20
        Console.progress("building the lab: nginx on \(Lab.serverIPv4):443 as \(InspectBenchLab.host), a \(options.largeMiB) MiB file, the person's CA…")
        let lab = try InspectBenchLab(directory: directory, largeBytes: largeBytes, tunnelvision: tunnelvision)
        defer { lab.close() }
        var paths: [InspectBenchPath] = [.inspect, .passthrough]
        var mitmproxyCA: String?
        if let mitmdump = FileSystem.findOnPath("mitmdump") {
            do {
                mitmproxyCA = try lab.startMitmproxy(mitmdump)
                paths.append(.mitmproxy)
                results.mitmproxyVersion = version(of: mitmdump)
            } catch {
                try Interruption.check()
                results.failures.append("mitmproxy: \(error)")
            }
        } else {
            results.notes.append("mitmdump not installed: no mitmproxy figures (pip install mitmproxy; scripts/bench inspect installs it)")
        }
        let clients = InspectBenchClients(lab: lab, passthroughTrust: try lab.trustBundle(adding: lab.labRoot, name: "passthrough"),
                                          mitmproxyTrust: try mitmproxyCA.map { ca throws(Failure) in
                                              try lab.trustBundle(adding: ca, name: "mitmproxy")
                                          },
                                          largeBytes: largeBytes, connections: options.connections)
        var failed = Set<InspectBenchPath>()
        for run in 1...options.repeats {
            for path in paths where !failed.contains(path) {
                let label = "\(path.rawValue) download \(run)/\(options.repeats)"
                do throws(Failure) {
                    let speed = try clients.throughput(path)
                    results.figures[path, default: InspectPathFigures()].throughput.append(speed)
                    Console.progress("\(label): \(megabytes(speed))")
                } catch {
                    try record(error, label, path, &failed, &results)
                }
            }
        }
        failed.removeAll()
        for run in 1...options.repeats {
            for path in paths where !failed.contains(path) {
                let label = "\(path.rawValue) \(options.connections) connections \(run)/\(options.repeats)"
                do throws(Failure) {
                    let (rate, counts) = try clients.connectionRate(path)
                    results.figures[path, default: InspectPathFigures()].connectionRate.append(rate)
                    var line = "\(label): " + String(format: "%.0f/s", rate)
                    if let counts {
                        // Connections that were not terminated would measure passthrough.
                        guard counts.terminationsOpened >= options.connections else {
                            throw Failure("only \(counts.terminationsOpened) of \(options.connections) connections were inspected")
                        }
                        results.leavesMinted.append(counts.leavesMinted)
                        line += ", leaves minted: " + (counts.leavesMinted.map(String.init) ?? "not reported")
                    }
                    Console.progress(line)
                } catch {
                    try record(error, label, path, &failed, &results)
                }
            }
        }
        Console.progress("taking the lab down…")
        return results
    }

    /// A failed run is recorded and ends that path's series (the next would fail the same way);
    /// an interruption ends everything.
    private static func record(_ error: Failure, _ label: String, _ path: InspectBenchPath, _ failed: inout Set<InspectBenchPath>,
                               _ results: inout InspectBenchResults) throws(Failure) {
        try Interruption.check()
        Console.error("\(label) failed: \(error)")
        results.failures.append("\(label): \(error)")
        failed.insert(path)
    }

    private static func version(of mitmdump: String) -> String? {
        let shown = try? ExternalCommand.run([mitmdump, "--version"])
        return shown?.standardOutput.split(separator: "\n").first.map(String.init)
    }

    static func megabytes(_ bytesPerSecond: Double) -> String { String(format: "%.1f MB/s", bytesPerSecond / 1e6) }
}
