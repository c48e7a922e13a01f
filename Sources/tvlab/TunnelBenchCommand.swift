#if canImport(Glibc)
import Glibc
#endif
import Bench
import Foundation
import Linux
import Shared

/// `tvlab bench tunnel`: single-stream TCP throughput both ways, 1-byte round-trip latency and
/// connections per second, through the tunnel, over the same path without it, and through pasta,
/// slirp4netns and HAProxy — all in one lab in one run, each figure the median of several rounds
/// that each take every path once; then the tunnel's resident memory with 1 000 flows open, and
/// its download rate with whole packets captured against the disk's sequential write rate.
enum TunnelBenchCommand {
    static func run(_ options: TunnelBenchOptions) throws(Failure) {
        guard geteuid() == 0 else {
            throw Failure("bench tunnel must run as root: it builds network namespaces and runs tunnelvision run (sudo tvlab bench tunnel)")
        }
        let tools = try TunnelBenchTools.locate(needTunnelvision: options.paths.contains { $0 == .tunnel || $0.isService })
        Interruption.install()
        // Behind sudo, `tunnelvision run` would drop its command to the invoking user; the clients
        // run as root on every path, and must write into the bench's private directory.
        unsetenv("SUDO_UID")
        unsetenv("SUDO_GID")
        do throws(Failure) {
            let results = try measure(options, tools: tools)
            print(options.json ? results.json() : results.table())
            if !results.failures.isEmpty {
                throw Failure("\(results.failures.count) measurement(s) failed; see above")
            }
        } catch {
            guard let signal = Interruption.receivedSignal else { throw error }
            Console.error("interrupted by signal \(signal); the lab and every program started for it are gone")
            exit(128 + signal)
        }
    }

    /// Everything made here is taken down by the defers, in reverse order, on every way out.
    private static func measure(_ options: TunnelBenchOptions, tools: TunnelBenchTools) throws(Failure) -> TunnelBenchResults {
        let directory = try FileSystem.makeTemporaryDirectory(in: FileSystem.temporaryParent, prefix: "tvlab-tunnel-")
        defer { FileSystem.removeTree(directory) }
        Console.progress("building the lab: namespaces host (\(Lab.hostIPv4)) and server (\(Lab.serverIPv4)) joined by veth…")
        let lab: Lab
        do {
            lab = try Lab()
            // pasta copies host's routes into its namespace and needs a default one among them.
            try lab.host.ip(["route", "add", "default", "via", Lab.serverIPv4])
            // The relays' own sockets live in host and close first, so each relayed connection
            // leaves one in TIME_WAIT there; the connection runs would fill host's ~28 000
            // ephemeral ports within seconds and measure that. Reuse is safe with timestamps on.
            try lab.host.run(["sysctl", "-q", "-w", "net.ipv4.tcp_tw_reuse=1"])
            // The server's address beyond host's default route, for the routed service's clients.
            try lab.server.ip(["link", "set", "lo", "up"])
            try lab.server.ip(["addr", "add", TunnelBenchRoute.beyondIPv4 + "/32", "dev", "lo"])
        } catch { throw Failure("cannot build the lab: \(error)") }
        defer { lab.removeSayingFailures() }

        let echo = try startServer(lab, [tools.tvlab, "net", "echo-server", "--port", String(TunnelBenchClients.echoPort)],
                                   name: "echo server", port: TunnelBenchClients.echoPort, errors: directory + "/echo-server.err")
        defer { echo.kill() }
        var iperfServer: BenchProcess?
        defer { iperfServer?.kill() }
        if let iperf3 = tools.iperf3 {
            iperfServer = try startServer(lab, [iperf3, "-s", "-p", String(TunnelBenchClients.iperfPort)], name: "iperf3 server",
                                          port: TunnelBenchClients.iperfPort, errors: directory + "/iperf3-server.err")
        }

        var results = TunnelBenchResults(options: options)
        if tools.iperf3 == nil { results.notes.append("iperf3 not installed: no throughput figures (apt-get install iperf3)") }
        let clients = TunnelBenchClients(tools: tools, directory: directory, seconds: options.seconds)
        let dataDirectory = directory + "/data-metadata"
        // Every path at every MTU: a row each, in the order asked.
        var rows: [(path: TunnelBenchPath, mtu: Int?, name: String)] = []
        for path in options.paths {
            guard tools.installed(path) else {
                Console.progress("\(path.rawValue): not installed; skipped")
                results.paths.append(PathResult(path: path, unavailable: "not installed"))
                continue
            }
            for mtu in path.takesMTU ? options.mtus.map(Optional.some) : [nil] {
                rows.append((path, mtu, mtu.map { "\(path.rawValue) at MTU \($0)" } ?? path.rawValue))
                results.paths.append(PathResult(path: path, mtu: mtu))
            }
        }
        let firstRow = results.paths.count - rows.count
        // In rounds: each round measures every row once, each on a route of its own, so that the
        // machine's drift over the bench (minutes) falls on every path alike, direct included —
        // measured one path after another, the last paths' figures came out up to a quarter lower
        // than when run first. A row that fails is measured no more. A service's own figures are
        // taken in the last round, on that round's service, before the next row.
        var broken = Set<Int>()
        var kernels: [Int: DeviceKernelCounters] = [:]
        for round in 1...options.repeats {
            for (index, row) in rows.enumerated() where !broken.contains(index) {
                let label = options.repeats == 1 ? row.name : "\(row.name) \(round)/\(options.repeats)"
                let route: TunnelBenchRoute
                do {
                    route = try openRoute(row.path, mtu: row.mtu ?? options.memoryMTU, lab: lab, tools: tools,
                                          dataDirectory: dataDirectory, directory: directory)
                } catch {
                    try Interruption.check()
                    Console.error("\(label): \(error)")
                    results.failures.append("\(label): \(error)")
                    if results.paths[firstRow + index].figures == PathFigures() {
                        results.paths[firstRow + index].unavailable = "could not be set up"
                    }
                    broken.insert(index)
                    continue
                }
                defer { route.close() }
                let failuresBefore = results.failures.count
                let figures = try measureFigures(route, named: label, clients: clients, iperf: tools.iperf3 != nil,
                                                 failures: &results.failures)
                results.paths[firstRow + index].figures.append(figures)
                if results.failures.count > failuresBefore { broken.insert(index) }
                if row.path == .passive, let tunnelvision = tools.tunnelvision {
                    if let counted = kernelCounters(tunnelvision: tunnelvision, dataDirectory: directory + "/data-passive",
                                                    failures: &results.failures) {
                        // Each round's service is a fresh one, counting from zero.
                        let before = kernels[index]
                        kernels[index] = DeviceKernelCounters(queueDrops: (before?.queueDrops ?? 0) + counted.queueDrops,
                                                              datagramsRead: (before?.datagramsRead ?? 0) + counted.datagramsRead)
                    }
                }
                if row.path.isService, round == options.repeats, !broken.contains(index), let tunnelvision = tools.tunnelvision {
                    var service = try measureService(route, clients: clients, options: options, failures: &results.failures)
                    route.close()
                    service.kernel = kernels[index]
                    if let kernel = service.kernel {
                        Console.progress("passive: the kernel dropped \(kernel.queueDrops) of \(kernel.queueDrops + kernel.datagramsRead) packets")
                    }
                    service.programLookup = try measureProgramLookup(row.path, lab: lab, tunnelvision: tunnelvision, clients: clients,
                                                                     options: options, directory: directory, failures: &results.failures)
                    results.services.append(service)
                }
            }
        }

        if options.paths.contains(.tunnel), let tunnelvision = tools.tunnelvision {
            let route = TunnelBenchRoute.tunnel(lab: lab, tunnelvision: tunnelvision, dataDirectory: dataDirectory,
                                                detail: "metadata", mtu: options.memoryMTU)
            let flows = TunnelBenchTargets.openFlows
            results.memory = try repeated("tunnel memory at MTU \(options.memoryMTU), \(flows) open flows", options.repeats, failures: &results.failures,
                                          format: { "VmRSS " + megabytes($0.residentBytes) + ", VmHWM " + megabytes($0.peakResidentBytes) }) {
                () throws(Failure) in try clients.memoryWithOpenFlows(route, flows: flows)
            }
            if tools.iperf3 != nil {
                results.fullCapture = try measureFullCapture(lab: lab, tunnelvision: tunnelvision, clients: clients, options: options,
                                                             directory: directory, failures: &results.failures)
            }
        }
        Console.progress("taking the lab down…")
        return results
    }

    /// `mtu` is what the tunnel, pasta and slirp4netns are run with; the other paths take none.
    private static func openRoute(_ path: TunnelBenchPath, mtu: Int, lab: Lab, tools: TunnelBenchTools,
                                  dataDirectory: String, directory: String) throws(Failure) -> TunnelBenchRoute {
        switch path {
        case .direct: return .direct(lab: lab)
        case .tunnel:
            return .tunnel(lab: lab, tunnelvision: tools.tunnelvision ?? "tunnelvision", dataDirectory: dataDirectory,
                           detail: "metadata", mtu: mtu)
        case .routed, .passive:
            return try .service(path, lab: lab, tunnelvision: tools.tunnelvision ?? "tunnelvision",
                                dataDirectory: directory + "/data-\(path.rawValue)", errors: directory + "/\(path.rawValue).err")
        case .pasta: return .pasta(lab: lab, pasta: tools.pasta ?? "pasta", mtu: mtu)
        case .slirp4netns:
            return try .slirp4netns(lab: lab, slirp4netns: tools.slirp4netns ?? "slirp4netns", mtu: mtu,
                                    errors: directory + "/slirp4netns.err")
        case .haproxy: return try .haproxy(lab: lab, haproxy: tools.haproxy ?? "haproxy", directory: directory)
        }
    }

    /// One run of each figure on `route`; `name` says which path, at which MTU and round, in the
    /// progress lines and failures.
    private static func measureFigures(_ route: TunnelBenchRoute, named name: String, clients: TunnelBenchClients,
                                       iperf: Bool, failures: inout [String]) throws(Failure) -> PathFigures {
        var figures = PathFigures()
        if iperf {
            figures.upload = try repeated("\(name) upload", 1, failures: &failures, format: gigabits) {
                () throws(Failure) in try clients.throughput(route, reverse: false)
            }
            figures.download = try repeated("\(name) download", 1, failures: &failures, format: gigabits) {
                () throws(Failure) in try clients.throughput(route, reverse: true)
            }
        }
        figures.roundTrip = try repeated("\(name) round trip (median)", 1, failures: &failures,
                                         format: { String(format: "%.1f µs", $0) }) {
            () throws(Failure) in try clients.roundTrip(route)
        }
        figures.connectionRate = try repeated("\(name) connections", 1, failures: &failures,
                                              format: { IPCBenchCommand.grouped(Int64($0.rounded())) + "/s" }) {
            () throws(Failure) in try clients.connectionRate(route)
        }
        return figures
    }

    /// What the kernel dropped before the passive service read it, and what it read, so far
    /// (`tunnelvision stats --json`); nil, with the failure recorded, when they cannot be read.
    private static func kernelCounters(tunnelvision: String, dataDirectory: String,
                                       failures: inout [String]) -> DeviceKernelCounters? {
        do {
            let stats = try ExternalCommand.run([tunnelvision, "stats", "--json", "--data-dir", dataDirectory])
            guard let kernel = try JSONDecoder().decode(ServiceFigures.StatsDocument.self, from: Data(stats.standardOutput.utf8))
                .stats.shell.device.kernel else {
                failures.append("passive: the service's counters carry no kernel counts")
                return nil
            }
            return kernel
        } catch {
            failures.append("passive: the service's counters: \(error)")
            return nil
        }
    }

    /// A service's memory with 1 000 flows open, on its last round's route (a service that has
    /// carried traffic, as one left running has).
    private static func measureService(_ route: TunnelBenchRoute, clients: TunnelBenchClients, options: TunnelBenchOptions,
                                       failures: inout [String]) throws(Failure) -> ServiceFigures {
        var figures = ServiceFigures(path: route.path)
        let flows = TunnelBenchTargets.openFlows
        figures.memory = try repeated("\(route.path.rawValue) memory, \(flows) open flows", options.repeats, failures: &failures,
                                      format: { "VmRSS " + megabytes($0.residentBytes) + ", VmHWM " + megabytes($0.peakResidentBytes) }) {
            () throws(Failure) in try clients.memoryWithOpenFlows(route, flows: flows)
        }
        return figures
    }

    /// What asking each flow's program costs a service path: its connections/s with the lookup and
    /// without (`up --no-programs`), in pairs — each run a fresh service of each kind, one after
    /// the other — so that the machine's drift over the bench falls on both alike.
    private static func measureProgramLookup(_ path: TunnelBenchPath, lab: Lab, tunnelvision: String, clients: TunnelBenchClients,
                                             options: TunnelBenchOptions, directory: String,
                                             failures: inout [String]) throws(Failure) -> ProgramLookupFigures {
        var figures = ProgramLookupFigures()
        for run in 1...options.repeats {
            for namesPrograms in [true, false] {
                let kind = namesPrograms ? "with" : "without"
                let label = "\(path.rawValue) connections \(kind) program lookup \(run)/\(options.repeats)"
                let rates = try repeated(label, 1, failures: &failures,
                                         format: { IPCBenchCommand.grouped(Int64($0.rounded())) + "/s" }) { () throws(Failure) -> Double in
                    let route = try TunnelBenchRoute.service(path, lab: lab, tunnelvision: tunnelvision,
                                                             dataDirectory: directory + "/data-\(path.rawValue)-programs-\(kind)",
                                                             errors: directory + "/\(path.rawValue)-programs-\(kind).err",
                                                             namesPrograms: namesPrograms)
                    defer { route.close() }
                    return try clients.connectionRate(route)
                }
                if namesPrograms { figures.with += rates } else { figures.without += rates }
            }
        }
        return figures
    }

    /// Each run: the disk's write rate in a fresh data directory, then a download through a
    /// tunnel capturing whole packets into it; the capture is deleted and flushed before the next.
    private static func measureFullCapture(lab: Lab, tunnelvision: String, clients: TunnelBenchClients, options: TunnelBenchOptions,
                                           directory: String, failures: inout [String]) throws(Failure) -> FullCaptureFigures {
        var figures = FullCaptureFigures()
        for run in 1...options.repeats {
            let dataDirectory = directory + "/data-full-\(run)"
            guard mkdir(dataDirectory, 0o700) == 0 else { throw Failure("cannot create \(dataDirectory)", errno: errno) }
            defer {
                FileSystem.removeTree(dataDirectory)
                sync()
            }
            figures.diskWrite += try repeated("disk sequential write (1 GiB, one fsync) \(run)/\(options.repeats)", 1,
                                              failures: &failures,
                                              format: { megabytes(UInt64($0)) + "/s" }) {
                () throws(Failure) in try TunnelBenchClients.diskWriteRate(in: dataDirectory)
            }
            let route = TunnelBenchRoute.tunnel(lab: lab, tunnelvision: tunnelvision, dataDirectory: dataDirectory,
                                                detail: "full", mtu: options.memoryMTU)
            figures.download += try repeated("tunnel download at MTU \(options.memoryMTU), full capture \(run)/\(options.repeats)", 1,
                                             failures: &failures, format: gigabits) {
                () throws(Failure) in try clients.throughput(route, reverse: true)
            }
        }
        return figures
    }

    /// Runs `body` `count` times, with a progress line for each result. A failed run is recorded
    /// and ends the series (the next would fail the same way); an interruption ends everything.
    private static func repeated<Value>(_ label: String, _ count: Int, failures: inout [String], format: (Value) -> String,
                                        _ body: () throws(Failure) -> Value) throws(Failure) -> [Value] {
        var values: [Value] = []
        for run in 1...count {
            do {
                let value = try body()
                values.append(value)
                Console.progress(count == 1 ? "\(label): \(format(value))" : "\(label) \(run)/\(count): \(format(value))")
            } catch {
                try Interruption.check()
                Console.error("\(label) \(run)/\(count) failed: \(error)")
                failures.append("\(label): \(error)")
                break
            }
        }
        return values
    }

    /// Starts a server in the server namespace and waits until it listens on `port`.
    static func startServer(_ lab: Lab, _ argv: [String], name: String, port: UInt16,
                                    errors: String) throws(Failure) -> BenchProcess {
        let server = try BenchProcess(lab.server.command(argv), name: name, errors: errors)
        do {
            try TunnelBenchRoute.waitUntil("\(name) to listen on port \(port)", seconds: 10, process: server) {
                TunnelBenchRoute.isListening(lab.server, port: port)
            }
        } catch {
            server.kill()
            throw Failure("\(error)\(TunnelBenchClients.tail(of: errors))")
        }
        return server
    }

    static func gigabits(_ bitsPerSecond: Double) -> String { String(format: "%.2f Gbit/s", bitsPerSecond / 1e9) }

    static func megabytes(_ bytes: UInt64) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }
}
