#if canImport(Glibc)
import Glibc
#endif
import Bench
import Foundation
import Linux

/// How a client in the lab reaches the server on one path: the command line that puts it there,
/// and what was started to make the path (slirp4netns and the namespace it serves), stopped by
/// `close`. Every path starts from the lab's host namespace, where the relays' own sockets live.
final class TunnelBenchRoute {
    let path: TunnelBenchPath
    /// The server's address the clients connect to.
    let server: String
    /// The TunnelVision service that makes a routed or passive path (its memory is the one measured).
    let service: BenchProcess?
    private let prefix: [String]
    private var helpers: [BenchProcess]

    /// The slirp4netns namespace's addresses: outside the lab's 198.19.0.0/24 and the tunnel's
    /// 198.18.0.0/24. slirp4netns gives its tap device .100.
    static let slirpCIDR = "198.18.210.0/24"
    static let slirpAddress = "198.18.210.100"
    static let setupSeconds = 10.0
    /// An address of the server beyond host's default route (on its loopback): what host's own
    /// subnet routes directly — the server's veth address — a routed service leaves alone.
    static let beyondIPv4 = "198.19.9.9"
    /// The interface a passive service watches: host's end of the veth to the server.
    static let watchedInterface = "veth-host"

    private init(path: TunnelBenchPath, server: String = Lab.serverIPv4, prefix: [String], helpers: [BenchProcess] = [],
                 service: BenchProcess? = nil) {
        self.path = path
        self.server = server
        self.prefix = prefix
        self.helpers = helpers + (service.map { [$0] } ?? [])
        self.service = service
    }

    /// `client` (an argv) run on this path.
    func command(_ client: [String]) -> [String] { prefix + client }

    /// Stops what the route started, newest first. Safe to call twice.
    func close() {
        helpers.reversed().forEach { $0.stop() }
        helpers.removeAll()
    }

    deinit { close() }

    static func direct(lab: Lab) -> TunnelBenchRoute {
        TunnelBenchRoute(path: .direct, prefix: lab.host.command([]))
    }

    /// `tunnelvision run`: the client in the tunnel's namespace, the tunnel's sockets in host.
    static func tunnel(lab: Lab, tunnelvision: String, dataDirectory: String, detail: String, mtu: Int) -> TunnelBenchRoute {
        TunnelBenchRoute(path: .tunnel, prefix: lab.host.command([tunnelvision, "run", "--data-dir", dataDirectory,
                                                                  "--capture-detail", detail, "--mtu", String(mtu), "--"]))
    }

    /// `tunnel(…)` with `beside` (an argv) run next to each client in the tunnel's namespace:
    /// started just before it, its output to `besideOutput`, waited for after it; the client's
    /// exit status is the command's.
    static func tunnel(lab: Lab, tunnelvision: String, dataDirectory: String, detail: String, mtu: Int,
                       beside: [String], besideOutput: String) -> TunnelBenchRoute {
        let quoted = { (word: String) in "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
        let script = beside.map(quoted).joined(separator: " ") + " >" + quoted(besideOutput)
            + #" 2>&1 & "$@"; status=$?; wait; exit $status"#
        let plain = tunnel(lab: lab, tunnelvision: tunnelvision, dataDirectory: dataDirectory, detail: detail, mtu: mtu)
        return TunnelBenchRoute(path: .tunnel, prefix: plain.prefix + ["sh", "-c", script, "sh"])
    }

    /// `up --host` in host (host plays the machine): host's default route goes through the
    /// service's TUN, and the clients, in host, reach the server at its address beyond it.
    /// `namesPrograms` false: `up --no-programs`, to measure what asking each flow's program costs.
    static func routed(lab: Lab, tunnelvision: String, dataDirectory: String, errors: String,
                       namesPrograms: Bool = true) throws(Failure) -> TunnelBenchRoute {
        try service(.routed, lab: lab, tunnelvision: tunnelvision, target: ["--host"], server: beyondIPv4,
                    dataDirectory: dataDirectory, errors: errors, namesPrograms: namesPrograms)
    }

    /// `up --interface veth-host` in host: the clients take the direct path, watched as it goes by.
    static func passive(lab: Lab, tunnelvision: String, dataDirectory: String, errors: String,
                        namesPrograms: Bool = true) throws(Failure) -> TunnelBenchRoute {
        try service(.passive, lab: lab, tunnelvision: tunnelvision, target: ["--interface", watchedInterface], server: Lab.serverIPv4,
                    dataDirectory: dataDirectory, errors: errors, namesPrograms: namesPrograms)
    }

    /// The service path `path` (routed or passive).
    static func service(_ path: TunnelBenchPath, lab: Lab, tunnelvision: String, dataDirectory: String, errors: String,
                        namesPrograms: Bool = true) throws(Failure) -> TunnelBenchRoute {
        path == .routed
            ? try routed(lab: lab, tunnelvision: tunnelvision, dataDirectory: dataDirectory, errors: errors, namesPrograms: namesPrograms)
            : try passive(lab: lab, tunnelvision: tunnelvision, dataDirectory: dataDirectory, errors: errors, namesPrograms: namesPrograms)
    }

    /// A service in the foreground, ready once `tunnelvision status` says it is live.
    private static func service(_ path: TunnelBenchPath, lab: Lab, tunnelvision: String, target: [String], server: String,
                                dataDirectory: String, errors: String, namesPrograms: Bool) throws(Failure) -> TunnelBenchRoute {
        // Metadata capture, as the tunnel path records: whole packets would measure the disk.
        do {
            try ExternalCommand.run([tunnelvision, "settings", "set", "capture-detail", "metadata", "--data-dir", dataDirectory])
        } catch { throw Failure("cannot set the service's capture detail: \(error)") }
        let service = try BenchProcess(lab.host.command([tunnelvision, "up"] + target + (namesPrograms ? [] : ["--no-programs"])
                                                        + ["--foreground", "--data-dir", dataDirectory]),
                                       name: "tunnelvision up", errors: errors)
        let route = TunnelBenchRoute(path: path, server: server, prefix: lab.host.command([]), service: service)
        do {
            try waitUntil("tunnelvision up to be live", seconds: setupSeconds, process: service) {
                let status = try? ExternalCommand.run([tunnelvision, "status", "--data-dir", dataDirectory])
                return status?.standardOutput.contains(" is live ") ?? false
            }
        } catch {
            route.close()
            throw Failure("\(error)\(TunnelBenchClients.tail(of: errors))")
        }
        return route
    }

    /// pasta starts the client in a namespace of its own and relays it. `--runas 0:0`: as plain
    /// root it would drop to nobody and fail; `--no-map-gw`: the gateway (the server) is the
    /// server, not an alias of the host's loopback.
    static func pasta(lab: Lab, pasta: String, mtu: Int) -> TunnelBenchRoute {
        TunnelBenchRoute(path: .pasta, prefix: lab.host.command([pasta, "--runas", "0:0", "--config-net", "-q", "--no-map-gw",
                                                                 "--mtu", String(mtu), "--"]))
    }

    /// slirp4netns attaches to a namespace someone else holds: a `sleep` in a fresh namespace made
    /// by `unshare` inside host; clients enter it with nsenter.
    static func slirp4netns(lab: Lab, slirp4netns: String, mtu: Int, errors: String) throws(Failure) -> TunnelBenchRoute {
        let holder = try BenchProcess(lab.host.command(["unshare", "--net", "sleep", "100000"]), name: "namespace holder")
        let route = TunnelBenchRoute(path: .slirp4netns, prefix: ["nsenter", "-t", String(holder.pid), "-n", "--"],
                                     helpers: [holder])
        do throws(Failure) {
            // unshare execs sleep only after the namespace is made; attaching before would put
            // the tap device in host.
            try waitUntil("the namespace for slirp4netns", seconds: setupSeconds, process: holder) {
                BenchProcess.readText("/proc/\(holder.pid)/comm") == "sleep\n"
            }
            let relay = try BenchProcess(lab.host.command([slirp4netns, "--configure", "--mtu=\(mtu)", "--disable-host-loopback",
                                                           "--cidr=\(slirpCIDR)", String(holder.pid), "tap0"]),
                                         name: "slirp4netns", errors: errors)
            route.helpers.append(relay)
            try waitUntil("slirp4netns to configure tap0", seconds: setupSeconds, process: relay) {
                let shown = try? ExternalCommand.run(["nsenter", "-t", String(holder.pid), "-n", "ip", "-4", "-o", "addr", "show", "dev", "tap0"])
                return shown?.standardOutput.contains(" \(slirpAddress)/") ?? false
            }
        } catch {
            route.close()
            throw error
        }
        return route
    }

    /// HAProxy in TCP mode in host, the clients' connections to host's own address at the bench's
    /// ports proxied to the server's: a relay that ends TCP with no TUN, one thread per processor,
    /// splicing between its sockets when that pays (`option splice-auto`): what ending TCP in a
    /// relay costs on this machine, a scale for the tunnel's figures. `-db`: in the foreground.
    static func haproxy(lab: Lab, haproxy: String, directory: String) throws(Failure) -> TunnelBenchRoute {
        let configuration = directory + "/haproxy.cfg"
        let ports = [TunnelBenchClients.iperfPort, TunnelBenchClients.echoPort]
        do {
            try Data(haproxyConfiguration(ports: ports, threads: ProcessInfo.processInfo.activeProcessorCount).utf8)
                .write(to: URL(fileURLWithPath: configuration))
        } catch { throw Failure("cannot write \(configuration): \(error)") }
        let errors = directory + "/haproxy.err"
        let proxy = try BenchProcess(lab.host.command([haproxy, "-db", "-f", configuration]), name: "haproxy", errors: errors)
        let route = TunnelBenchRoute(path: .haproxy, server: Lab.hostIPv4, prefix: lab.host.command([]), helpers: [proxy])
        do throws(Failure) {
            try waitUntil("haproxy to listen on ports \(ports.map(String.init).joined(separator: " and "))", seconds: setupSeconds,
                          process: proxy) {
                ports.allSatisfy { isListening(lab.host, port: $0) }
            }
        } catch {
            route.close()
            throw Failure("\(error)\(TunnelBenchClients.tail(of: errors))")
        }
        return route
    }

    /// HAProxy's configuration for `haproxy(…)`: each port on host's address proxied to the
    /// same port on the server's. maxconn bounds the descriptors it asks for (about two per
    /// connection) under the usual hard limit; the connections runs hold one at a time.
    static func haproxyConfiguration(ports: [UInt16], threads: Int) -> String {
        var lines = ["global", "    nbthread \(threads)", "    maxconn 4096",
                     "defaults", "    mode tcp", "    option splice-auto",
                     "    timeout connect 5s", "    timeout client 120s", "    timeout server 120s"]
        for port in ports {
            lines += ["listen port-\(port)", "    bind \(Lab.hostIPv4):\(port)", "    server lab \(Lab.serverIPv4):\(port)"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether something in `namespace` listens on TCP `port` (`ss`).
    static func isListening(_ namespace: NetworkNamespace, port: UInt16) -> Bool {
        let listening = try? ExternalCommand.run(["ss", "-N", namespace.name, "-Hltn", "sport = :\(port)"])
        return !(listening?.standardOutput.isEmpty ?? true)
    }

    /// Polls `condition` every 5 ms for up to `seconds`; fails sooner if `process` ends.
    static func waitUntil(_ what: String, seconds: Double, process: BenchProcess,
                          _ condition: () -> Bool) throws(Failure) {
        let waited = Stopwatch()
        while !condition() {
            try Interruption.check()
            if let outcome = process.poll() { throw Failure("waiting for \(what): \(process.name) ended (\(outcome.summary))") }
            guard waited.elapsedSeconds < seconds else { throw Failure("gave up waiting for \(what) after \(Int(seconds)) s") }
            usleep(5_000)
        }
    }
}
