#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Foundation
import App
import Linux
import AppLinux
import Shared

/// `tunnelvision up`: a network namespace monitored as a service (issue 24's first target), in the
/// background (through the monitoring control, `TunnelController` over `LinuxServiceManager`) or
/// in the foreground (the service itself).
enum UpCommand {
    struct Request: Equatable {
        var configuration: TunnelConfiguration
        var dataDirectory: String?
        var foreground = false
        var detached = false
        /// `--ui`: the web app on the data directory once the service is live (`--no-open`: no browser).
        var ui = false
        var noOpen = false
        /// `--inspect`'s lab options (`--upstream-ca`, `--keylog`), for the service in the foreground.
        var inspection: InspectionRunOptions?
    }

    static let help = """
    tunnelvision up --host | --netns NAME | --pid PID | --interface IF [--inspect] [--ui [--no-open]]
                    [--no-programs] [--foreground] [--data-dir D]

    Monitors the host — the network namespace 'up' runs in — or network namespace NAME (one 'ip
    netns list' shows), or the network namespace of process PID (a container's, found from a
    process in it), or watches interface IF passively, as a service: every
    connection its programs make is recorded as 'run' records a command's — names, TLS facts,
    captures, the history, each connection's program — and everything else works on the data
    directory as it does for 'run' ('flows', 'live', 'ui', 'stats'). 'up' starts the service in
    the background and returns once traffic goes through it (or says why it could not);
    'tunnelvision status' shows it, 'tunnelvision down' stops it. One service runs per data
    directory: a second 'up' says what is running.

    How: a TUN device inside the target carries its default routes (IPv4 and IPv6, each only where it has
    one) through a routing table of ours (0x7476); the tunnel's own sockets, made inside it, carry
    the mark 0x7476, which a rule of ours sends by its own routes, so nothing loops. What its
    main table routes more specifically than a default route (loopback, link-local, its own subnets)
    stays direct, as do replies from its own uplink addresses — strict reverse-path filtering
    keeps working. Its resolver configuration is left alone. The rules live at priorities
    29810-29819 only; stopping removes exactly them, and the next 'up' removes what a killed
    service left there, never anything else. If the service dies, even by kill -9, its device and
    the routes through it vanish with it and its traffic takes its own routes at once. When the
    target's network changes while the service runs — a new uplink or address, a default route
    that comes or goes — the service hears it (netlink) and moves its rules with it; 'status'
    counts the changes and says what the last one came to.

    --interface is passive: a packet socket (AF_PACKET, a TPACKET_V3 ring of 10 MiB) hears every IP
    packet the interface sends and receives — 'any' for every interface of the namespace — and
    nothing of the network is changed or relayed, so nothing can be inspected. Connections with
    an end on this machine are named with their program; those that only pass by (forwarded or
    bridged) say they are not local; on 'any' a forwarded packet, seen coming in and going out, is
    kept once, as it came in. What the kernel could not fit in the ring is counted
    ('tunnelvision stats', shell.device: kernel.queueDrops), never silent.

    --host           the network namespace up runs in (the machine's, unless up itself runs in
                     another: 'ip netns exec NAME tunnelvision up --host' is NAME playing the host)
    --netns NAME     the network namespace to monitor (/var/run/netns/NAME)
    --pid PID        the network namespace process PID is in (/proc/PID/ns/net), held open from
                     the start, so the service stays with that namespace if the process ends;
                     refused when it is the namespace 'up' itself runs in (that is the host)
    --interface IF   watch interface IF of the namespace up runs in (or 'any') passively
    --foreground     be the service: stay in the foreground until stopped (SIGTERM, SIGINT or
                     SIGHUP: Ctrl-C, 'kill PID', systemd's stop), printing to the terminal; under
                     systemd (NOTIFY_SOCKET set, Type=notify) it says READY=1 once live
    --data-dir D     where the history, captures and settings live (default as for 'run'); the
                     service's state is D/service.json, a background service's messages D/service.log
    --detached       (said by 'up' to the service it starts: once live, its output goes to the log)

    --ui             once the service is live, serve the web app on the data directory (as 'tunnelvision
                     ui' does) until Ctrl-C — the service goes on after it; with --foreground, for as
                     long as the service runs
    --no-open        with --ui: print the web app's address, open no browser
    --no-programs    do not ask which program made each connection (the kernel's socket table and
                     /proc, once per connection opened: 'tvlab bench tunnel' measures what it costs)

    --inspect        decrypt HTTPS with your local CA ('tunnelvision ca create'), as 'run --inspect'
                     does — routed targets only. Nothing is installed in the target: programs there
                     are decrypted only when they trust your CA (put its certificate, 'tunnelvision ca
                     export FILE', in their trust store yourself). One that does not refuses ours
                     on its first connection to a host — that connection fails, as it chose — and its
                     next ones to that host pass untouched, recorded as not inspectable; pinning is
                     never bypassed. The tls-inspection setting pauses and resumes it while it runs.
    --upstream-ca F  with --inspect and --foreground: trust the CA certificates in F, not the
                     system's, for the real servers (a lab's own PKI)
    --keylog F       with --inspect and --foreground: append both legs' TLS keys to F (NSS key log)

    Needs root. Exit status 0 once live (in the foreground: once stopped and cleaned up); 1 when
    it could not start, a service already runs on D (its target and pid are said), or cleaning up
    failed; 2 on a usage error; 130 when Ctrl-C came while the service started: it is stopped
    again as soon as it is up (a second Ctrl-C leaves it starting).
    """

    static func parse(_ arguments: [String]) throws(Invocation.UsageError) -> Request {
        var target: MonitoringTarget?
        var request = Request(configuration: .default)
        var inspect = false, namesPrograms = true, upstreamCA: String?, keyLog: String?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case MonitoringTarget.namespaceOption, MonitoringTarget.processOption, MonitoringTarget.interfaceOption:
                guard let value = rest.popFirst() else { throw Invocation.UsageError(message: "up: \(argument) needs a value") }
                guard target == nil else { throw Invocation.UsageError(message: "up: one target at a time") }
                if argument == MonitoringTarget.namespaceOption {
                    target = .namespace(value)
                } else if argument == MonitoringTarget.interfaceOption {
                    target = .interface(value)
                } else {
                    guard let pid = Int32(value) else { throw Invocation.UsageError(message: "up: --pid takes a process ID, not \(value.debugDescription)") }
                    target = .process(pid)
                }
            case ServiceCommandLine.dataDirectoryOption:
                guard let value = rest.popFirst() else { throw Invocation.UsageError(message: "up: \(argument) needs a value") }
                request.dataDirectory = value
            case ServiceCommandLine.foregroundOption: request.foreground = true
            case ServiceCommandLine.detachedOption: request.detached = true
            case MonitoringTarget.hostOption:
                guard target == nil else { throw Invocation.UsageError(message: "up: one target at a time") }
                target = .host
            case ServiceCommandLine.uiOption: request.ui = true
            case ServiceCommandLine.noOpenOption: request.noOpen = true
            case ServiceCommandLine.inspectOption: inspect = true
            case ServiceCommandLine.noProgramsOption: namesPrograms = false
            case "--upstream-ca", "--keylog":
                guard let value = rest.popFirst() else { throw Invocation.UsageError(message: "up: \(argument) needs a value") }
                if argument == "--upstream-ca" { upstreamCA = value } else { keyLog = value }
            default:
                throw Invocation.UsageError(message: "up: unexpected \(argument)")
            }
        }
        guard let target else {
            throw Invocation.UsageError(message: "up: what to monitor? (tunnelvision up --host, --netns NAME, --pid PID for a "
                                        + "process's namespace, or --interface IF to watch an interface passively)")
        }
        request.configuration = TunnelConfiguration(target: target, inspect: inspect, namesPrograms: namesPrograms)
        request.inspection = try RunCommand.inspection(inspect: inspect, upstreamCA: upstreamCA, keyLog: keyLog, command: "up",
                                                       example: "tunnelvision up --netns NAME --inspect OPTION FILE --foreground")
        if (upstreamCA != nil || keyLog != nil) && !request.foreground {
            throw Invocation.UsageError(message: "up: --upstream-ca and --keylog are for a service in the foreground (a lab's; "
                                        + "tunnelvision up --netns NAME --inspect --upstream-ca FILE --foreground)")
        }
        do { try request.configuration.validate() } catch { throw Invocation.UsageError(message: "up: \(error)") }
        if request.detached && !request.foreground {
            throw Invocation.UsageError(message: "up: --detached is for the service itself, with --foreground")
        }
        if request.detached && request.ui {
            throw Invocation.UsageError(message: "up: --ui is up's own: the service it starts serves no web app")
        }
        if request.noOpen && !request.ui {
            throw Invocation.UsageError(message: "up: --no-open is for --ui (tunnelvision up --host --ui --no-open)")
        }
        return request
    }

    static func run(_ request: Request) async -> Int32 {
        let dataDirectory = DataDirectory.location(override: request.dataDirectory, environment: ProcessInfo.processInfo.environment,
                                                   effectiveUserID: geteuid())
        if request.foreground { return await serve(request, dataDirectory: dataDirectory) }
        let started = await start(request.configuration, dataDirectory: dataDirectory)
        guard started == 0, request.ui else { return started }
        // The web app in the foreground until Ctrl-C; the service is a service and goes on.
        let served = await UICommand.run(UICommand.Request(dataDirectory: dataDirectory.path, noOpen: request.noOpen))
        printError("tunnelvision: the web app stopped; the service goes on ('tunnelvision down' stops it)")
        return served
    }

    /// The background start: the monitoring control starts the service and says how it went.
    private static func start(_ configuration: TunnelConfiguration, dataDirectory: URL) async -> Int32 {
        let manager = LinuxServiceManager(dataDirectory: dataDirectory)
        if let running = runningService(manager, dataDirectory: dataDirectory) {
            printError("tunnelvision: up: \(running.alreadyRunning)")
            return 1
        }
        // Ctrl-C while it starts (the service is a session of its own and does not see it): the
        // start is undone once it has gone either way, so nothing is left running unseen.
        StartInterrupts.watch()
        printError("starting the service for \(configuration.target)…")
        let controller = TunnelController(manager: manager, configuration: configuration)
        await controller.startMonitoring()
        if StartInterrupts.interrupted { return await undoStart(controller, manager: manager) }
        StartInterrupts.stopWatching()
        let state = await controller.state
        guard state.isLive else {
            if case .failed(let error) = state { printError("tunnelvision: up: \(error)") }
            else { printError("tunnelvision: up: the service is \(state.word), not live") }
            return 1
        }
        let screen = (try? manager.report()).map { ServiceStatusScreen(report: $0, dataDirectory: dataDirectory.path, runRecording: false) }
        print(screen?.headline ?? "monitoring \(configuration.target) is live")
        print("'tunnelvision status' shows it, 'tunnelvision down' stops it; its messages go to "
              + DataDirectoryLayout.serviceLog(in: dataDirectory).path)
        fflush(nil)   // before anything written unbuffered (the web app's address, with --ui)
        return 0
    }

    /// After a Ctrl-C during the start: a service that came up is stopped (its rules and routes
    /// removed, as `down` does); one that failed is said so.
    private static func undoStart(_ controller: TunnelController, manager: LinuxServiceManager) async -> Int32 {
        let state = await controller.state
        guard state.isLive else {
            if case .failed(let error) = state { printError("tunnelvision: up: interrupted; the start had failed: \(error)") }
            else { printError("tunnelvision: up: interrupted; the service is \(state.word)") }
            return StartInterrupts.status
        }
        await controller.stopMonitoring()
        if case .failed(let error) = await controller.state {
            printError("tunnelvision: up: interrupted, and the service could not be stopped: \(error) ('tunnelvision down' stops it)")
            return 1
        }
        printError("tunnelvision: up: interrupted; the service was stopped and what it had set up removed")
        return StartInterrupts.status
    }

    /// The service already running on the directory, if one is.
    private static func runningService(_ manager: LinuxServiceManager, dataDirectory: URL) -> ServiceStatusScreen? {
        guard let report = try? manager.report(), report.runningPID != nil else { return nil }
        return ServiceStatusScreen(report: report, dataDirectory: dataDirectory.path, runRecording: false)
    }

    /// The service itself, until it is told to stop.
    private static func serve(_ request: Request, dataDirectory: URL) async -> Int32 {
        // SIGINT, SIGTERM and SIGHUP end the service in order; one that arrives while it starts is
        // kept and ends it once it is up — even when whoever started it had them blocked (a child
        // inherits its parent thread's mask).
        var stops = sigset_t()
        sigemptyset(&stops)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&stops, number) }
        pthread_sigmask(SIG_UNBLOCK, &stops, nil)
        let (stopped, stop) = AsyncStream.makeStream(of: Void.self)
        let signals = StopSignals.handle(queue: DispatchQueue(label: "up stop")) { stop.yield() }
        defer { signals.forEach { $0.cancel() } }

        guard geteuid() == 0 else {
            printError("tunnelvision: up: \(RoutedService.Failure.notRoot)")
            return 1
        }
        let presence: ServicePresence
        do {
            try DataDirectory.prepare(dataDirectory)
            guard let claimed = try ServicePresence(dataDirectory: dataDirectory, target: request.configuration.target,
                                                    inspect: request.configuration.inspect) else {
                let manager = LinuxServiceManager(dataDirectory: dataDirectory)
                let running = runningService(manager, dataDirectory: dataDirectory)
                printError("tunnelvision: up: \(running?.alreadyRunning ?? "another service holds \(dataDirectory.path)")")
                return 1
            }
            presence = claimed
        } catch {
            printError("tunnelvision: up: \(error)")
            return 1
        }
        let systemd = SystemdNotifier(environment: ProcessInfo.processInfo.environment)
        // In the foreground, --ui serves the web app for as long as the service runs.
        let ui = request.ui ? await RunCommand.startUI(on: dataDirectory, noOpen: request.noOpen) : nil
        let status = await runService(request, dataDirectory: dataDirectory, presence: presence, systemd: systemd,
                                      stopped: stopped)
        await ui?.stop()
        return status
    }

    /// The service's body, from its presence claimed to its end: its exit status.
    private static func runService(_ request: Request, dataDirectory: URL, presence: ServicePresence, systemd: SystemdNotifier,
                                   stopped: AsyncStream<Void>) async -> Int32 {
        let target = request.configuration.target
        let announce: @Sendable (ServiceLive) -> Void = { live in
            presence.live(device: live.device)
            systemd.ready(status: live.sentence)
            FileDescriptor.writeAll(STDOUT_FILENO, text: live.sentence + "\n")
            if request.detached { turnToLog(dataDirectory) }
        }
        let untilStopped: () async -> Void = {
            for await _ in stopped { break }
            presence.stopping()
            systemd.stopping()
        }
        do {
            if case .interface(let interface) = target {
                try await PassiveService(interface: interface, dataDirectory: dataDirectory,
                                         namesPrograms: request.configuration.namesPrograms).run(live: announce, until: untilStopped)
                print("stopped watching \(target)")
                presence.end(problem: nil)
                return 0
            }
            var options = RoutedService.Options(target: target, dataDirectory: dataDirectory)
            // The service the manager starts is told --inspect alone: it inspects with the system's trust upstream.
            options.inspection = request.configuration.inspect ? (request.inspection ?? InspectionRunOptions()) : nil
            options.namesPrograms = request.configuration.namesPrograms
            let service = RoutedService(options: options)
            let outcome = try await service.run(live: announce, networkChanged: { change in
                presence.networkChanged(learnt: change.learnt, sentence: change.sentence)
                FileDescriptor.writeAll(change.learnt ? STDOUT_FILENO : STDERR_FILENO,
                                        text: (change.learnt ? "" : "tunnelvision: up: ") + change.sentence + "\n")
            }, until: untilStopped)
            for rule in outcome.foreignRules { printError("tunnelvision: kept a rule that is not ours at our priorities in \(target): \(rule)") }
            for failure in outcome.removalFailures { printError("tunnelvision: could not remove: \(failure)") }
            print("stopped monitoring \(target); its routes are its own again")
            presence.end(problem: outcome.removalFailures.isEmpty ? nil
                                  : "stopped, but could not remove: " + outcome.removalFailures.joined(separator: "; "))
            return outcome.removalFailures.isEmpty ? 0 : 1
        } catch {
            printError("tunnelvision: up: \(error)")
            presence.end(problem: "\(error)")
            return 1
        }
    }

    /// Once live, a background service's output goes to its log: the pipe `up` reads closes,
    /// which is how `up` hears it is live. Nothing may stay on the pipe's descriptor.
    private static func turnToLog(_ dataDirectory: URL) {
        let path = DataDirectoryLayout.serviceLog(in: dataDirectory).path
        var log = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if log < 0 { log = open("/dev/null", O_WRONLY | O_CLOEXEC) }
        guard log >= 0 else { return }
        fflush(nil)   // what print buffered belongs to the pipe, before the swap
        dup2(log, STDOUT_FILENO)
        dup2(log, STDERR_FILENO)
        close(log)
    }
}
