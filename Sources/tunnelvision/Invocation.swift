/// The command line, parsed in this one place. Everything after it receives typed values.
enum Invocation: Equatable {
    case help(topic: String?)
    case version(json: Bool)
    case packets(path: String, json: Bool)
    case settings(SettingsCommand.Request)
    case run(RunCommand.Request)
    case demo(dataDirectory: String?, json: Bool, ui: Bool, noOpen: Bool)
    case stats(dataDirectory: String?, json: Bool)
    case analyze(path: String, dataDirectory: String?, json: Bool, workers: Int?)
    case captures(CapturesCommand.Request)
    case storage(StorageCommand.Request)
    case flows(FlowsCommand.Request)
    case activity(ActivityCommand.Request)
    case export(ExportCommand.Request)
    case diagnostics(dataDirectory: String?, json: Bool)
    case flow(FlowCommand.Request)
    case live(LiveCommand.Request)
    case ui(UICommand.Request)
    case ca(CACommand.Request)
    case up(UpCommand.Request)
    case down(dataDirectory: String?)
    case status(dataDirectory: String?, json: Bool)
    case audit(AuditCommand.Request)
    case auditRecord(AuditCommand.RecordRequest)

    struct UsageError: Error, Equatable, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        guard let command = arguments.first else { return .help(topic: nil) }
        var rest = Array(arguments.dropFirst())
        if command == "-h" || command == "--help" || command == "help" { return .help(topic: rest.first) }
        // Everything after CMD belongs to CMD: only the options before it are ours.
        if command == "run" {
            let options = rest.prefix { $0 != "--" && $0.hasPrefix("-") }
            if options.contains("-h") || options.contains("--help") { return .help(topic: "run") }
            return .run(try RunCommand.parse(rest))
        }
        // `audit record` ends in a command, like `run`: what follows CMD is CMD's.
        if command == "audit", rest.first == "record" {
            let options = rest.dropFirst().prefix { $0 != "--" && $0.hasPrefix("-") }
            if options.contains("-h") || options.contains("--help") { return .help(topic: "audit") }
            return .auditRecord(try AuditCommand.parseRecord(Array(rest.dropFirst())))
        }
        if rest.contains("-h") || rest.contains("--help") { return .help(topic: command) }
        let json = take("--json", from: &rest)
        switch command {
        case "version", "--version":
            try expectNothing(rest, after: "version")
            return .version(json: json)
        case "packets":
            if let unknown = rest.first(where: { $0.hasPrefix("-") && $0 != "-" }) {
                throw UsageError(message: "packets: unknown option \(unknown)")
            }
            guard rest.count == 1 else {
                throw UsageError(message: rest.isEmpty ? "packets: which capture file? (tunnelvision packets FILE.pcap)"
                                                       : "packets: one capture file at a time")
            }
            return .packets(path: rest[0], json: json)
        case "flow":
            return .flow(try FlowCommand.parse(rest, json: json))
        case "settings":
            return .settings(try SettingsCommand.parse(rest, json: json))
        case "captures":
            return .captures(try CapturesCommand.parse(rest, json: json))
        case "storage":
            return .storage(try StorageCommand.parse(rest, json: json))
        case "flows":
            return .flows(try FlowsCommand.parse(rest, json: json))
        case "activity":
            return .activity(try ActivityCommand.parse(rest, json: json))
        case "live":
            return .live(try LiveCommand.parse(rest, json: json))
        case "ui":
            return .ui(try UICommand.parse(rest, json: json))
        case "ca":
            return .ca(try CACommand.parse(rest, json: json))
        case "up":
            if json { throw UsageError(message: "up: --json is for 'tunnelvision status'") }
            return .up(try UpCommand.parse(rest))
        case "down", "status":
            let dataDirectory = try takeDataDirectory(from: &rest, command: command)
            if json && command == "down" { throw UsageError(message: "down: --json is for 'tunnelvision status'") }
            try expectNothing(rest, after: command)
            return command == "down" ? .down(dataDirectory: dataDirectory) : .status(dataDirectory: dataDirectory, json: json)
        case "analyze":
            let dataDirectory = try takeDataDirectory(from: &rest, command: command)
            let workers = try takeWorkers(from: &rest)
            if let unknown = rest.first(where: { $0.hasPrefix("-") && $0 != "-" }) {
                throw UsageError(message: "analyze: unknown option \(unknown)")
            }
            guard rest.count == 1 else {
                throw UsageError(message: rest.isEmpty ? "analyze: which capture file? (tunnelvision analyze FILE.pcap)"
                                                       : "analyze: one capture file at a time")
            }
            return .analyze(path: rest[0], dataDirectory: dataDirectory, json: json, workers: workers)
        case "export":
            return .export(try ExportCommand.parse(rest, json: json))
        case "audit":
            return .audit(try AuditCommand.parse(rest, json: json))
        case "diagnostics":
            let dataDirectory = try takeDataDirectory(from: &rest, command: command)
            try expectNothing(rest, after: command)
            return .diagnostics(dataDirectory: dataDirectory, json: json)
        case "demo", "stats":
            let dataDirectory = try takeDataDirectory(from: &rest, command: command)
            let ui = command == "demo" && take("--ui", from: &rest)
            let noOpen = command == "demo" && take("--no-open", from: &rest)
            if noOpen && !ui { throw UsageError(message: "demo: --no-open is for --ui (tunnelvision demo --ui --no-open)") }
            try expectNothing(rest, after: command)
            return command == "demo" ? .demo(dataDirectory: dataDirectory, json: json, ui: ui, noOpen: noOpen)
                                     : .stats(dataDirectory: dataDirectory, json: json)
        default:
            throw UsageError(message: "unknown command \(command)")
        }
    }

    static func takeDataDirectory(from arguments: inout [String], command: String) throws(UsageError) -> String? {
        guard let index = arguments.firstIndex(of: "--data-dir") else { return nil }
        guard index + 1 < arguments.count else { throw UsageError(message: "\(command): --data-dir needs a value") }
        defer { arguments.removeSubrange(index...index + 1) }
        return arguments[index + 1]
    }

    /// Workers that read a capture at once: far more than any machine's processors is a typo.
    static let workerRange = 1...64

    private static func takeWorkers(from arguments: inout [String]) throws(UsageError) -> Int? {
        guard let index = arguments.firstIndex(of: "--workers") else { return nil }
        guard index + 1 < arguments.count, let workers = Int(arguments[index + 1]), workerRange.contains(workers) else {
            throw UsageError(message: "analyze: --workers needs a number from \(workerRange.lowerBound) to \(workerRange.upperBound)")
        }
        arguments.removeSubrange(index...index + 1)
        return workers
    }

    private static func take(_ flag: String, from arguments: inout [String]) -> Bool {
        guard let index = arguments.firstIndex(of: flag) else { return false }
        arguments.remove(at: index)
        return true
    }

    private static func expectNothing(_ arguments: [String], after command: String) throws(UsageError) {
        if let extra = arguments.first { throw UsageError(message: "\(command): unexpected \(extra)") }
    }
}
