#if canImport(Glibc)
import Glibc
#endif

// `tvlab … | head` should end quietly, not by signal.
signal(SIGPIPE, SIG_IGN)

let command: Command
do {
    command = try Arguments.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Console.error("\(error)\nRun 'tvlab --help' for usage.")
    exit(2)
}

do throws(Failure) {
    switch command {
    case let .help(topic):
        guard let text = HelpText.text(for: topic) else {
            Console.error("no help for \(topic ?? "")\n\n\(HelpText.overview)")
            exit(2)
        }
        print(text)
    case let .capture(options):
        try await CaptureCommand.run(options)
    case let .benchPackets(options):
        try await BenchCommand.run(options)
    case let .benchRing(records, slots, json):
        try IPCBenchCommand.runRing(records: records, slots: slots, json: json)
    case let .benchLive(seconds, rate, json):
        try await LiveBench.run(seconds: seconds, rate: rate, json: json)
    case let .benchAnalyze(packets, tunnelvision, json):
        try await AnalyzeBench.run(packets: packets, tunnelvisionPath: tunnelvision, json: json)
    case let .benchStore(packets, batchSize, json):
        try await IPCBenchCommand.runStore(packets: packets, batchSize: batchSize, json: json)
    case let .benchHistory(flows, packets, json):
        try await HistoryBench.run(flows: flows, packets: packets, json: json)
    case let .benchEvidence(flows, packets, json):
        try await EvidenceBench.run(flows: flows, packets: packets, json: json)
    case let .ringProduce(options):
        try RingCommand.produce(options)
    case let .benchUI(options):
        try await UIBench.run(options)
    case let .benchTunnel(options):
        try TunnelBenchCommand.run(options)
    case let .benchInspect(options):
        try InspectBenchCommand.run(options)
    case let .net(request):
        try NetClients.run(request)
    case let .faults(options):
        try FaultSuite.run(options)
    case let .soak(seconds, json):
        try SoakCommand.run(seconds: seconds, json: json)
    }
} catch {
    Console.error("\(error)")
    exit(1)
}
