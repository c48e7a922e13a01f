import Bench
import Linux
import Shared

/// `tvlab net …`: the small TCP tools `bench tunnel` runs inside its namespaces.
enum NetRequest: Equatable {
    case echoServer(port: UInt16)
    case roundTrips(IPEndpoint, count: Int, json: Bool)
    /// `perSecond`: at most that many connections a second (nil: as fast as they go).
    case connectionRate(IPEndpoint, seconds: Int, perSecond: Int?, json: Bool)
    case hold(IPEndpoint, count: Int, readyFile: String, verify: Bool)
    /// Malformed datagrams written straight into the first non-loopback interface (the tunnel's
    /// device, seen from the monitored namespace), for the fault suite.
    case garbage(count: Int, seed: UInt64)
    /// The soak's steady mixed traffic to the lab's echo, file and UDP echo servers.
    case mix(host: String, echoPort: UInt16, httpPort: UInt16, httpPath: String, udpPort: UInt16, seconds: Int)
}

struct TunnelBenchOptions: Equatable {
    /// The MTUs of the monitored side of each relay (tunnel, pasta, slirp4netns), each measured
    /// in turn: 1 500 is what real links use, 65 520 the largest a TUN device takes and what
    /// pasta and slirp4netns default to or are run with.
    var mtus = [1_500, 65_520]
    /// The length of each iperf3 test and of each connection-rate run.
    var seconds = 4
    /// Runs per figure; the report shows their median.
    var repeats = 3
    var paths = TunnelBenchPath.allCases
    var json = false

    /// The range `tunnelvision run --mtu` accepts.
    static let mtuRange = 1_280...65_520

    /// The MTU the tunnel's memory and full-capture figures are measured at: the largest asked,
    /// where a flow's buffers are largest.
    var memoryMTU: Int { mtus.max() ?? Self.mtuRange.upperBound }

    /// The MTUs in `text`, comma-separated (`1500,65520`), in the order given; nil when one is
    /// not a whole number in `mtuRange`, or is given twice.
    static func mtus(from text: String) -> [Int]? {
        var mtus: [Int] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let mtu = Int(item), mtuRange.contains(mtu), !mtus.contains(mtu) else { return nil }
            mtus.append(mtu)
        }
        return mtus
    }
}

extension Arguments {
    static let defaultRoundTrips = 20_000
    static let defaultRateSeconds = 4

    static func parseNet(_ arguments: [String]) throws(UsageError) -> Command {
        guard let tool = arguments.first, !tool.hasPrefix("-") else {
            throw UsageError(message: "net: which tool? (tvlab net echo-server | rr | crr | hold | garbage)")
        }
        let rest = Array(arguments.dropFirst())
        switch tool {
        case "echo-server":
            let options = try OptionList(rest, command: "net echo-server", valued: ["--port"], flags: [])
            return .net(.echoServer(port: try port(options)))
        case "rr":
            let options = try OptionList(rest, command: "net rr", valued: ["--host", "--port", "--count"], flags: ["--json"])
            return .net(.roundTrips(try endpoint(options), count: try options.integer("--count", in: 1...100_000_000) ?? defaultRoundTrips,
                                    json: options.has("--json")))
        case "crr":
            let options = try OptionList(rest, command: "net crr", valued: ["--host", "--port", "--seconds", "--per-second"], flags: ["--json"])
            return .net(.connectionRate(try endpoint(options), seconds: try options.integer("--seconds", in: 1...3_600) ?? defaultRateSeconds,
                                        perSecond: try options.integer("--per-second", in: 1...100_000),
                                        json: options.has("--json")))
        case "hold":
            let options = try OptionList(rest, command: "net hold", valued: ["--host", "--port", "--count", "--ready-file"],
                                         flags: ["--verify"])
            guard let count = try options.integer("--count", in: 1...1_000_000) else {
                throw UsageError(message: "net hold: how many connections? (--count N)")
            }
            guard let readyFile = options.values["--ready-file"] else {
                throw UsageError(message: "net hold: which file says they are open? (--ready-file F)")
            }
            return .net(.hold(try endpoint(options), count: count, readyFile: readyFile, verify: options.has("--verify")))
        case "garbage":
            let options = try OptionList(rest, command: "net garbage", valued: ["--count", "--seed"], flags: [])
            return .net(.garbage(count: try options.integer("--count", in: 1...10_000_000) ?? 1_000,
                                 seed: UInt64(try options.integer("--seed", in: 0...Int.max) ?? 1)))
        case "mix":
            let options = try OptionList(rest, command: "net mix",
                                         valued: ["--host", "--port", "--http-port", "--path", "--udp-port", "--seconds"], flags: [])
            guard let host = options.values["--host"], let httpPort = try options.integer("--http-port", in: UInt16(1)...UInt16.max),
                  let udpPort = try options.integer("--udp-port", in: UInt16(1)...UInt16.max) else {
                throw UsageError(message: "net mix: needs --host, --port, --http-port and --udp-port")
            }
            return .net(.mix(host: host, echoPort: try port(options), httpPort: httpPort, httpPath: options.values["--path"] ?? "/",
                             udpPort: udpPort, seconds: try options.integer("--seconds", in: 1...1_000_000) ?? 60))
        default:
            throw UsageError(message: "net: unknown tool \(tool) (echo-server, rr, crr, hold, garbage or mix)")
        }
    }

    static func parseBenchTunnel(_ arguments: [String]) throws(UsageError) -> Command {
        let options = try OptionList(arguments, command: "bench tunnel", valued: ["--mtu", "--seconds", "--repeat", "--paths"],
                                     flags: ["--json"])
        var bench = TunnelBenchOptions()
        if let list = options.values["--mtu"] {
            guard let mtus = TunnelBenchOptions.mtus(from: list) else {
                let range = "\(TunnelBenchOptions.mtuRange.lowerBound)…\(TunnelBenchOptions.mtuRange.upperBound)"
                throw UsageError(message: "bench tunnel: --mtu wants a whole number, \(range), or several, comma-separated "
                                 + "and each once; got '\(list)'")
            }
            bench.mtus = mtus
        }
        bench.seconds = try options.integer("--seconds", in: 1...3_600) ?? bench.seconds
        bench.repeats = try options.integer("--repeat", in: 1...100) ?? bench.repeats
        if let list = options.values["--paths"] {
            switch TunnelBenchPath.list(from: list) {
            case .success(let paths): bench.paths = paths
            case .failure(let problem): throw UsageError(message: "bench tunnel: --paths: \(problem)")
            }
        }
        bench.json = options.has("--json")
        return .benchTunnel(bench)
    }

    private static func port(_ options: OptionList) throws(UsageError) -> UInt16 {
        // As Int, so the message names the upper bound (UInt16.max would read "1 or more").
        guard let port = try options.integer("--port", in: 1...Int(UInt16.max)) else {
            throw UsageError(message: "\(options.command): which port? (--port P)")
        }
        return UInt16(port)
    }

    private static func endpoint(_ options: OptionList) throws(UsageError) -> IPEndpoint {
        guard let host = options.values["--host"] else {
            throw UsageError(message: "\(options.command): which server? (--host ADDRESS)")
        }
        guard let address = IPAddress(parsing: host) else {
            throw UsageError(message: "\(options.command): --host wants an IPv4 or IPv6 address; got '\(host)'")
        }
        return IPEndpoint(address: address, port: try port(options))
    }
}
