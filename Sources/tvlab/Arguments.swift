import Fixtures
import Shared

/// The command line, parsed in this one place; the commands receive typed values.
enum Command: Equatable {
    case help(topic: String?)
    case capture(CaptureOptions)
    case benchPackets(BenchOptions)
    case benchRing(records: UInt64, slots: Int, json: Bool)
    case benchLive(seconds: Int, rate: Int, json: Bool)
    case benchStore(packets: Int, batchSize: Int, json: Bool)
    case benchHistory(flows: Int, packets: Int, json: Bool)
    case benchEvidence(flows: Int, packets: Int, json: Bool)
    case benchAnalyze(packets: Int, tunnelvision: String?, json: Bool)
    case ringProduce(RingProduceOptions)
    case benchTunnel(TunnelBenchOptions)
    case benchInspect(InspectBenchOptions)
    case benchUI(UIBench.Options)
    case net(NetRequest)
    case faults(FaultsOptions)
    case soak(seconds: Int, json: Bool)
}

struct CaptureOptions: Equatable {
    var packets: Int
    var output: String
    var seed: UInt64 = 1
    var snaplen: UInt32 = CaptureDetail.fullPayload.snaplen
    var force = false
    /// Named TLS conversations after DNS lookups (`HandshakeTraffic`) instead of mixed packets.
    var handshakes = false
}

struct BenchOptions: Equatable {
    var packets = 1_000_000
    var tunnelvision: String?
    var json = false
    var keep = false
}

/// A command line that cannot be run as written (exit status 2).
struct UsageError: Error, Equatable, CustomStringConvertible {
    let message: String
    var description: String { message }
}

enum Arguments {
    /// libpcap's own ceiling, which the full-payload detail already uses: larger snaplens make
    /// other readers (tshark among them) refuse the file.
    static let maximumSnaplen = CaptureDetail.fullPayload.snaplen

    static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        guard let command = arguments.first else { return .help(topic: nil) }
        var rest = Array(arguments.dropFirst())
        if command == "help" || command == "-h" || command == "--help" { return .help(topic: rest.first) }
        if rest.contains("-h") || rest.contains("--help") { return .help(topic: command) }
        switch command {
        case "capture":
            let options = try OptionList(rest, command: "capture", valued: ["--packets", "--out", "--seed", "--snaplen"],
                                         flags: ["--force", "--handshakes"])
            guard let packets = try options.integer("--packets", in: 1...Int.max) else {
                throw UsageError(message: "capture: how many packets? (--packets N)")
            }
            guard let output = options.values["--out"] else {
                throw UsageError(message: "capture: where to? (--out FILE)")
            }
            var capture = CaptureOptions(packets: packets, output: output)
            capture.seed = try options.integer("--seed", in: 0...UInt64.max) ?? capture.seed
            capture.snaplen = try options.integer("--snaplen", in: 1...maximumSnaplen) ?? capture.snaplen
            capture.force = options.has("--force")
            capture.handshakes = options.has("--handshakes")
            return .capture(capture)
        case "bench":
            guard let benchmark = rest.first, !benchmark.hasPrefix("-") else {
                throw UsageError(message: "bench: which benchmark? (tvlab bench packets | ring | store | analyze | history | evidence | tunnel)")
            }
            rest.removeFirst()
            switch benchmark {
            case "packets":
                let options = try OptionList(rest, command: "bench packets", valued: ["--packets", "--tunnelvision"],
                                             flags: ["--json", "--keep"])
                var bench = BenchOptions()
                bench.packets = try options.integer("--packets", in: 1...Int.max) ?? bench.packets
                bench.tunnelvision = options.values["--tunnelvision"]
                bench.json = options.has("--json")
                bench.keep = options.has("--keep")
                return .benchPackets(bench)
            case "ring":
                let options = try OptionList(rest, command: "bench ring", valued: ["--records", "--slots"], flags: ["--json"])
                return .benchRing(records: try options.integer("--records", in: 1...UInt64.max) ?? 100_000_000,
                                  slots: try options.integer("--slots", in: 1...(1 << 24)) ?? RingGeometry.defaultSlotCount,
                                  json: options.has("--json"))
            case "live":
                let options = try OptionList(rest, command: "bench live", valued: ["--seconds", "--rate"], flags: ["--json"])
                return .benchLive(seconds: try options.integer("--seconds", in: 1...3600) ?? 5,
                                  rate: try options.integer("--rate", in: 0...100_000_000) ?? 0, json: options.has("--json"))
            case "store":
                let options = try OptionList(rest, command: "bench store", valued: ["--packets", "--batch"],
                                             flags: ["--json"])
                return .benchStore(packets: try options.integer("--packets", in: 1...Int.max) ?? 2_000_000,
                                   batchSize: try options.integer("--batch", in: 1...1_000_000) ?? 512,
                                   json: options.has("--json"))
            case "history":
                let options = try OptionList(rest, command: "bench history", valued: ["--flows", "--packets"], flags: ["--json"])
                return .benchHistory(flows: try options.integer("--flows", in: 1...Int.max) ?? 1_000_000,
                                     packets: try options.integer("--packets", in: 0...Int.max) ?? 20_000_000,
                                     json: options.has("--json"))
            case "evidence":
                let options = try OptionList(rest, command: "bench evidence", valued: ["--flows", "--packets"], flags: ["--json"])
                return .benchEvidence(flows: try options.integer("--flows", in: 1...Int.max) ?? 20_000,
                                      packets: try options.integer("--packets", in: 0...Int.max) ?? 400_000,
                                      json: options.has("--json"))
            case "tunnel":
                return try parseBenchTunnel(rest)
            case "inspect":
                return try parseBenchInspect(rest)
            case "ui": return .benchUI(try UIBench.parse(rest))
            case "analyze":
                let options = try OptionList(rest, command: "bench analyze", valued: ["--packets", "--tunnelvision"],
                                             flags: ["--json"])
                return .benchAnalyze(packets: try options.integer("--packets", in: 1...Int.max) ?? 210_000,
                                     tunnelvision: options.values["--tunnelvision"], json: options.has("--json"))
            default:
                throw UsageError(message: "bench: unknown benchmark \(benchmark) (packets, ring, store, tunnel or inspect)")
            }
        case "faults":
            let options = try OptionList(rest, command: "faults", valued: ["--connections", "--mutations", "--only"],
                                         flags: ["--short", "--json"])
            var faults = FaultsOptions()
            faults.short = options.has("--short")
            faults.connections = try options.integer("--connections", in: 1...100_000)
            faults.mutations = try options.integer("--mutations", in: 1...1_000_000)
            faults.json = options.has("--json")
            faults.only = options.values["--only"].map { $0.split(separator: ",").map(String.init) } ?? []
            return .faults(faults)
        case "soak":
            let options = try OptionList(rest, command: "soak", valued: ["--seconds"], flags: ["--json"])
            return .soak(seconds: try options.integer("--seconds", in: 60...1_000_000) ?? 3_600, json: options.has("--json"))
        case "ring":
            guard rest.first == "produce" else { throw UsageError(message: "ring: the only subcommand is produce") }
            rest.removeFirst()
            let options = try OptionList(rest, command: "ring produce", valued: ["--ring", "--records", "--first", "--slots"],
                                         flags: ["--wait-for-space", "--abandon"])
            guard let ring = options.values["--ring"] else { throw UsageError(message: "ring produce: which file? (--ring FILE)") }
            guard let records = try options.integer("--records", in: 0...UInt64.max) else {
                throw UsageError(message: "ring produce: how many records? (--records N)")
            }
            var produce = RingProduceOptions(ring: ring, records: records)
            produce.first = try options.integer("--first", in: 0...(UInt64.max - records)) ?? 0
            produce.slots = try options.integer("--slots", in: 1...(1 << 24)) ?? produce.slots
            produce.waitForSpace = options.has("--wait-for-space")
            produce.abandon = options.has("--abandon")
            return .ringProduce(produce)
        case "net":
            return try parseNet(rest)
        default:
            throw UsageError(message: "unknown command \(command)")
        }
    }
}

/// `--name value`, `--name=value` and bare flags, each at most once; nothing positional.
struct OptionList {
    let command: String
    private(set) var values: [String: String] = [:]

    init(_ arguments: [String], command: String, valued: Set<String>, flags: Set<String>) throws(UsageError) {
        self.command = command
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else { throw UsageError(message: "\(command): unexpected \(argument)") }
            var name = argument
            var value: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            guard values[name] == nil else { throw UsageError(message: "\(command): \(name) given twice") }
            if flags.contains(name) {
                guard value == nil else { throw UsageError(message: "\(command): \(name) takes no value") }
                values[name] = ""
            } else if valued.contains(name) {
                if value == nil, index < arguments.count, !arguments[index].hasPrefix("--") {
                    value = arguments[index]
                    index += 1
                }
                guard let value, !value.isEmpty else { throw UsageError(message: "\(command): \(name) needs a value") }
                values[name] = value
            } else {
                throw UsageError(message: "\(command): unknown option \(name)")
            }
        }
    }

    func has(_ flag: String) -> Bool { values[flag] != nil }

    /// The option's value as a whole number within `range`, or nil when it was not given.
    func integer<T: FixedWidthInteger>(_ name: String, in range: ClosedRange<T>) throws(UsageError) -> T? {
        guard let text = values[name] else { return nil }
        let digits = text.filter { $0 != "_" }
        guard let value = T(digits), range.contains(value) else {
            let bound = range.upperBound == T.max ? "\(range.lowerBound) or more" : "\(range.lowerBound)…\(range.upperBound)"
            throw UsageError(message: "\(command): \(name) wants a whole number, \(bound); got '\(text)'")
        }
        return value
    }
}
