#if canImport(Glibc)
import Glibc
#endif
import App
import Foundation
import Linux
import Shared

/// `tunnelvision run [options] [--] CMD ARGS…`: CMD runs in a fresh network namespace whose only
/// way out is the tunnel, for exactly CMD's life; every packet is recorded; at the end a summary
/// of its connections goes to standard error (standard output stays CMD's), and `run` exits with
/// CMD's status.
enum RunCommand {
    struct Request: Equatable {
        var dataDirectory: String?
        var captureDetail: CaptureDetail?
        var captureOff = false
        var jsonSummary: String?
        var mtu = TunnelAddressing.mtu
        var command: [String]
    }

    /// IPv6 needs at least 1280 (RFC 8200 §5); 65 520 is the largest a TUN device takes and what
    /// pasta and slirp4netns use to cut the packet rate.
    static let mtuRange = 1280...65_520

    /// Options come before CMD; the first argument that is not one (or everything after `--`)
    /// is CMD, whose own options are never read as ours.
    static func parse(_ arguments: [String]) throws(Invocation.UsageError) -> Request {
        var request = Request(command: [])
        var index = 0
        func value(_ option: String) throws(Invocation.UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw Invocation.UsageError(message: "run: \(option) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--":
                request.command = Array(arguments[(index + 1)...])
                index = arguments.count
                continue
            case "--data-dir": request.dataDirectory = try value(argument)
            case "--capture-detail":
                switch try value(argument) {
                case "metadata": request.captureDetail = .metadataOnly
                case "full": request.captureDetail = .fullPayload
                case let other: throw Invocation.UsageError(message: "run: --capture-detail takes metadata or full, not \(other)")
                }
            case "--no-capture": request.captureOff = true
            case "--json-summary": request.jsonSummary = try value(argument)
            case "--mtu":
                let text = try value(argument)
                guard let mtu = Int(text), RunCommand.mtuRange.contains(mtu) else {
                    throw Invocation.UsageError(message: "run: --mtu takes \(RunCommand.mtuRange.lowerBound)…\(RunCommand.mtuRange.upperBound), not \(text)")
                }
                request.mtu = mtu
            default:
                guard !argument.hasPrefix("-") else { throw Invocation.UsageError(message: "run: unknown option \(argument)") }
                request.command = Array(arguments[index...])
                index = arguments.count
                continue
            }
            index += 1
        }
        guard !request.command.isEmpty else {
            throw Invocation.UsageError(message: "run: which command? (tunnelvision run -- CMD ARGS…)")
        }
        return request
    }

    /// Runs the request and returns the exit status.
    static func run(_ request: Request) async -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        // Errors a person can act on, before anything is made.
        guard geteuid() == 0 else {
            printError("tunnelvision: run needs root (it makes a network namespace and a TUN device): sudo tunnelvision run -- \(request.command.joined(separator: " "))")
            return 1
        }
        guard access("/dev/net/tun", F_OK) == 0 else {
            printError("tunnelvision: \(TUNError.deviceMissing)")
            return 1
        }
        guard MonitoredCommand.canFind(request.command[0], environment: environment) else {
            printError("tunnelvision: \(request.command[0]): command not found")
            return 127
        }
        do {
            return try await Session(request: request, environment: environment).run()
        } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
    }
}

/// What failed while setting the tunnel up, in the words of the part that failed.
struct RunFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One `run`: everything made for it, and taken down in order at the end — also when CMD fails.
private struct Session {
    let request: RunCommand.Request
    let environment: [String: String]

    func run() async throws -> Int32 {
        let dataDirectory = DataDirectory.location(override: request.dataDirectory, environment: environment,
                                                   effectiveUserID: geteuid())
        do { try DataDirectory.prepare(dataDirectory) } catch { throw RunFailure("\(error)") }
        let reading = SettingsStore(dataDirectory: dataDirectory).loadForSession()
        if let problem = reading.problem { printError("tunnelvision: \(problem); using the factory settings") }
        let detail = request.captureDetail ?? reading.settings.captureDetail
        let captureEnabled = !request.captureOff && reading.settings.captureEnabled

        let usualFileLimit = OpenFileLimit.raiseToHardLimit()
        NamespaceName.removeLeftovers(prefix: "tvrun")
        let namespace = try NetworkNamespace.create(NamespaceName.make(prefix: "tvrun"))
        defer { namespace.delete() }
        let device = try TUNDevice()
        defer { device.close() }
        try TunnelNamespacePlan.apply(device: device.name, namespace: namespace.name, mtu: request.mtu)
        let announced = TunnelResolvers.announceable(from: NamespaceResolvConf.hostResolvers() ?? [])
        if announced.isEmpty { printError("tunnelvision: no resolver of this machine can be announced; names will not resolve inside") }
        let resolvConf = try NamespaceResolvConf(namespace: namespace.name, servers: announced)
        defer { resolvConf.remove() }

        var options = TunnelSession.Options()
        options.captureEnabled = captureEnabled
        options.captureDetail = detail
        options.mtu = request.mtu
        let reported = NamespaceResolvConf.hostResolvers()
        let session: TunnelSession
        do {
            session = try await TunnelSession(dataDirectory: dataDirectory, device: device, options: options,
                                              resolvers: ResolverStatus(announced: announced.map(\.description),
                                                                        reportedAtStart: reported?.map(\.description)))
        } catch { throw RunFailure("\(error)") }

        // Ctrl-C reaches CMD (same process group); we stay to take the tunnel down and summarise.
        // A handler, unlike SIG_IGN, is reset to the default in CMD when it starts.
        signal(SIGINT) { _ in }
        signal(SIGTERM) { _ in }
        let started = Date()
        let command = MonitoredCommand(arguments: request.command,
                                       user: .invoking(environment: environment, effectiveUserID: geteuid()),
                                       openFileLimit: usualFileLimit)
        let ending: MonitoredCommand.Ending
        do {
            ending = MonitoredCommand.wait(try command.start(namespace: namespace.name))
        } catch {
            await session.stop()
            throw RunFailure("\(error)")
        }
        await session.stop()

        let flows = (try? await sessionFlows(session.store, since: started.addingTimeInterval(-1))) ?? []
        let summary = RunSummary(
            command: request.command.joined(separator: " "),
            exitStatus: { if case .exited(let status) = ending { status } else { nil } }(),
            signal: { if case .signalled(let signal) = ending { signal } else { nil } }(),
            connections: flows.map { RunSummary.Connection($0) },
            captureFiles: (session.capture?.captureFiles() ?? []).map { file in
                RunSummary.CaptureFile(path: file.path, bytes: Self.size(of: file.path))
            },
            databasePath: DataDirectoryLayout.database(in: dataDirectory).path)
        printError(summary.text())
        if let path = request.jsonSummary {
            try? Data((summary.json() + "\n").utf8).write(to: URL(fileURLWithPath: path))
        }
        return ending.exitStatus
    }

    /// The flows this run wrote: newest first until one is older than the run.
    private func sessionFlows(_ store: FlowStore, since start: Date) async throws -> [StoredFlow] {
        var flows: [StoredFlow] = []
        var cursor: FlowCursor?
        while true {
            let page = try await store.recentFlows(limit: 200, before: cursor)
            let recent = page.filter { $0.lastSeen >= start }
            flows += recent
            guard recent.count == page.count, let last = page.last else { break }
            cursor = FlowCursor(after: last)
        }
        return flows.reversed()
    }

    private static func size(of path: String) -> UInt64 {
        var status = stat()
        return stat(path, &status) == 0 ? UInt64(status.st_size) : 0
    }
}
