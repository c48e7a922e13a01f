#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Linux
import AppLinux
import Shared

/// `tunnelvision up`: a network namespace monitored as a service (issue 24's first target).
enum UpCommand {
    struct Request: Equatable {
        var namespace: String
        var dataDirectory: String?
    }

    static let help = """
    tunnelvision up --netns NAME --foreground [--data-dir D]

    Monitors network namespace NAME (one 'ip netns list' shows, a container's) until it is told to
    stop (SIGTERM, SIGINT or SIGHUP: Ctrl-C, 'kill PID', systemd's stop): every connection its programs make
    is recorded as 'run' records a command's — names, TLS facts, captures, the history, each
    connection's program — and everything else works on the data directory as it does for 'run'
    ('flows', 'live', 'ui').

    How: a TUN device inside NAME carries its default routes (IPv4 and IPv6, each only where NAME has
    one) through a routing table of ours (0x7476); the tunnel's own sockets, made inside NAME, carry
    the mark 0x7476, which a rule of ours sends by NAME's own routes, so nothing loops. What NAME's
    main table routes more specifically than a default route (loopback, link-local, its own subnets)
    stays direct, as do replies from NAME's own uplink addresses — strict reverse-path filtering
    keeps working. NAME's resolver configuration is left alone. The rules live at priorities
    29810-29819 only; stopping removes exactly them, and the next 'up' removes what a killed
    service left there, never anything else. If the service dies, even by kill -9, its device and
    the routes through it vanish with it and NAME's traffic takes its own routes at once.

    --netns NAME     the network namespace to monitor (/var/run/netns/NAME)
    --foreground     stay in the foreground until stopped (required for now: the background service,
                     'down' and 'status' are still to come, as are --host, --pid and --interface)
    --data-dir D     where the history, captures and settings live (default as for 'run')

    Needs root. Exit status 0 once stopped and cleaned up, 1 when it could not start or clean up,
    2 on a usage error.
    """

    static func parse(_ arguments: [String]) throws(Invocation.UsageError) -> Request {
        var namespace: String?
        var dataDirectory: String?
        var foreground = false
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--netns", "--data-dir":
                guard let value = rest.popFirst() else { throw Invocation.UsageError(message: "up: \(argument) needs a value") }
                if argument == "--netns" { namespace = value } else { dataDirectory = value }
            case "--foreground": foreground = true
            case "--host", "--pid", "--interface", "--inspect", "--ui":
                throw Invocation.UsageError(message: "up: \(argument) is not built yet; today up monitors a network namespace: "
                                            + "tunnelvision up --netns NAME --foreground")
            default:
                throw Invocation.UsageError(message: "up: unexpected \(argument)")
            }
        }
        guard let namespace else { throw Invocation.UsageError(message: "up: which network namespace? (tunnelvision up --netns NAME --foreground)") }
        guard foreground else {
            throw Invocation.UsageError(message: "up: the background service is not built yet: run it in the foreground "
                                        + "(tunnelvision up --netns \(namespace) --foreground) and stop it with Ctrl-C or SIGTERM")
        }
        return Request(namespace: namespace, dataDirectory: dataDirectory)
    }

    static func run(_ request: Request) async -> Int32 {
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
        let service = RoutedService(options: RoutedService.Options(namespace: request.namespace, dataDirectory: request.dataDirectory))
        do {
            let outcome = try await service.run(live: { sentence in FileDescriptor.writeAll(STDOUT_FILENO, text: sentence + "\n") }) {
                for await _ in stopped { break }
            }
            for rule in outcome.foreignRules { printError("tunnelvision: kept a rule that is not ours at our priorities in \(request.namespace): \(rule)") }
            for failure in outcome.removalFailures { printError("tunnelvision: could not remove: \(failure)") }
            print("stopped monitoring network namespace \(request.namespace); its routes are its own again")
            return outcome.removalFailures.isEmpty ? 0 : 1
        } catch {
            printError("tunnelvision: up: \(error)")
            return 1
        }
    }
}
