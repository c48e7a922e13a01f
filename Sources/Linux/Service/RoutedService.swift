#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared
import Synchronization

/// `tunnelvision up --netns NAME | --pid PID --foreground`: a network namespace monitored as a service
/// (DESIGN.md § What is monitored, routed). It sweeps what an earlier session left there, puts a
/// TUN in the namespace and its default routes through it (`RoutedPlan`), relays from inside the
/// namespace with marked sockets, and records as `run` does — until it is told to stop, when it
/// takes its rules away before the tunnel. Fail open: the TUN is close-on-exec and never
/// persistent, so if the service dies its routes go with it and the namespace's own take over.
package struct RoutedService {
    package struct Options: Sendable {
        /// A named namespace or a process's (`.namespace`, `.process`).
        package var target: MonitoringTarget
        /// Already resolved (`DataDirectory.location`): the service and whoever started it agree on it.
        package var dataDirectory: URL
        /// `up --inspect`'s options; nil: nothing is decrypted.
        package var inspection: InspectionRunOptions?
        /// `up --no-programs`: no flow's program is asked.
        package var namesPrograms = true
        package init(target: MonitoringTarget, dataDirectory: URL) {
            self.target = target
            self.dataDirectory = dataDirectory
        }
    }

    package enum Failure: Error, CustomStringConvertible {
        case notRoot
        case target(RoutedTarget.Failure)
        /// The device moved in by process ID landed elsewhere: the process ended meanwhile.
        case targetMoved(MonitoringTarget)
        case routing(String)
        case noDefaultRoute(String)
        case dataDirectory(DirectoryError)
        case device(TUNError)
        case system(CommandError)
        case session(TunnelSessionError)
        /// The tunnel stopped by itself while the service ran.
        case tunnel(String)

        package var description: String {
            switch self {
            case .notRoot: "up must run as root: it puts a TUN device and routing rules in the namespace "
                + "(sudo tunnelvision up …)"
            case .target(let failure): failure.description
            case .targetMoved(let target): "\(target) changed while the service started (the process ended?); nothing was routed"
            case .routing(let why): why
            case .noDefaultRoute(let name): "\(name) has no default route: nothing in it leaves "
                + "by one, so there is nothing to send through the tunnel"
            case .dataDirectory(let error): "\(error)"
            case .device(let error): "\(error)"
            case .system(let error): "\(error)"
            case .session(let error): "\(error)"
            case .tunnel(let why): "the tunnel stopped by itself: \(why)"
            }
        }
    }

    /// What ended the service, for its last line.
    package struct Outcome: Sendable {
        package let dataDirectory: URL
        /// Rules of others found at our priorities (kept), and what of ours could not be removed.
        package let foreignRules: [String]
        package let removalFailures: [String]
    }

    let options: Options

    package init(options: Options) { self.options = options }

    /// What a network change in the target came to: learnt (our rules follow it) or not, in a sentence.
    package struct NetworkChange: Sendable {
        package let learnt: Bool
        package let sentence: String
    }

    /// Runs until `stopped` returns; `live` is told the moment traffic goes through the tunnel,
    /// `networkChanged` each time the target's network changes under it.
    package func run(live: @Sendable (ServiceLive) -> Void, networkChanged: @escaping @Sendable (NetworkChange) -> Void = { _ in },
                     until stopped: () async -> Void) async throws(Failure) -> Outcome {
        guard geteuid() == 0 else { throw .notRoot }
        let target: RoutedTarget
        do { target = try RoutedTarget(options.target) } catch { throw .target(error) }
        // Held to the end: a process's namespace is reached through the descriptor it keeps open.
        defer { withExtendedLifetime(target) {} }
        let name = options.target.description
        let dataDirectory = options.dataDirectory
        do { try DataDirectory.prepare(dataDirectory) } catch { throw .dataDirectory(error) }
        let routing = RoutedRouting(target: target)
        let leftovers: RoutedLeftovers
        let facts: RoutedTargetFacts
        do {
            leftovers = try routing.leftovers()
            routing.sweep(leftovers)
            facts = try routing.facts()
        } catch { throw .routing(error.description) }
        guard !facts.families.isEmpty else { throw .noDefaultRoute(name) }

        let device: TUNDevice
        do { device = try TUNDevice() } catch { throw .device(error) }
        defer { device.close() }
        do {
            // v6 only where v6 has a default route to carry.
            for command in TunnelNamespacePlan.deviceCommands(device: device.name, movingTo: target.linkDestination,
                                                              inside: target.ip, ipv6: facts.families.contains(.v6)) {
                try ExternalCommand.run(command)
            }
        } catch { throw .system(error) }
        // Moved by process ID: it must be in the namespace held since the start.
        guard case .success(let landed) = device.networkNamespace() else { throw .targetMoved(options.target) }
        let landedRight = target.contains(namespace: landed)
        close(landed)
        guard landedRight else { throw .targetMoved(options.target) }

        let settings = SettingsStore(dataDirectory: dataDirectory).loadForSession()
        var sessionOptions = TunnelSession.Options.service(for: options.target, settings: settings)
        sessionOptions.socketMark = RoutedPlan.mark
        sessionOptions.inspection = options.inspection
        sessionOptions.namesPrograms = options.namesPrograms
        // Decrypted content is kept only by a service that decrypts, and only while its switch is on.
        sessionOptions.plaintextPersistenceEnabled = options.inspection != nil && settings.settings.plaintextPersistenceEnabled
        // The plan while it is applied. A tunnel that fails by itself takes its routes away at
        // once — a TUN nobody reads must not swallow the namespace's traffic — and ends the
        // service as a stop would (SIGTERM to itself), saying why.
        let applied = Mutex<RoutedPlan?>(nil)
        let session: TunnelSession
        do {
            session = try await TunnelSession(dataDirectory: dataDirectory, device: device, options: sessionOptions,
                                              relayNamespace: target.path, onFailure: { failure in
                FileDescriptor.writeAll(STDERR_FILENO, text: "tunnelvision: up: \(failure); \(name)'s routes are its own again\n")
                if let plan = applied.withLock({ plan in defer { plan = nil }; return plan }) { routing.remove(plan) }
                kill(getpid(), SIGTERM)
            })
        } catch { throw .session(error) }
        let plan = RoutedPlan(device: device.name, families: facts.families, uplinkAddresses: facts.uplinkAddresses)
        do { try routing.apply(plan) } catch {
            await session.stop()
            throw .system(error)
        }
        applied.withLock { $0 = plan }
        // The target's network changing under the service (a new uplink, address or default
        // route) is learnt: our rules follow it. Without the watch the service still runs, as
        // it started, and says so.
        let watch: RouteChangeWatch?
        do {
            watch = try RouteChangeWatch(namespace: target.path) {
                if let change = Self.relearn(applied, routing: routing, target: target, name: name) { networkChanged(change) }
            }
        } catch {
            watch = nil
            FileDescriptor.writeAll(STDERR_FILENO, text: "tunnelvision: up: \(error); changes to \(name)'s network will not be followed\n")
        }
        live(ServiceLive(device: device.name, sentence: "monitoring \(name): its default routes go through \(device.name); "
                  + "the history is in \(dataDirectory.path)"))
        await stopped()
        watch?.stop()
        let stillApplied = applied.withLock { plan -> RoutedPlan? in
            defer { plan = nil }
            return plan
        }
        let failures: [CommandError] = stillApplied.map { routing.remove($0) } ?? []
        await session.stop()
        if let failure = session.failure { throw .tunnel(failure.description) }
        return Outcome(dataDirectory: dataDirectory, foreignRules: leftovers.foreign, removalFailures: failures.map(\.description))
    }

    /// Learns the target again after its network changed, and moves the applied plan to what it
    /// finds (under the plan's lock, so a stop or a failure never races it); nil when nothing we
    /// route changed — our own rules' echo, or a change beside the default routes.
    static func relearn(_ applied: borrowing Mutex<RoutedPlan?>, routing: RoutedRouting, target: RoutedTarget,
                        name: String) -> NetworkChange? {
        applied.withLock { plan -> NetworkChange? in
            guard let current = plan else { return nil }
            let facts: RoutedTargetFacts
            do { facts = try routing.facts() } catch {
                return NetworkChange(learnt: false, sentence: "\(name)'s network changed and could not be read again "
                                     + "(\(error)); its routes stay as they were")
            }
            let next = RoutedPlan(device: current.device, families: facts.families, uplinkAddresses: facts.uplinkAddresses)
            let commands = current.changes(to: next)
            guard !commands.isEmpty else { return nil }
            var failures: [CommandError] = []
            if next.families.contains(.v6) && !current.families.contains(.v6) {
                do throws(CommandError) {
                    try ExternalCommand.run(TunnelNamespacePlan.ipv6AddressCommand(device: current.device, inside: target.ip))
                } catch {
                    failures.append(error)
                }
            }
            failures += routing.change(commands)
            plan = next
            let now = next.families.isEmpty ? "no default route any more: nothing goes through \(current.device)"
                : "its default routes (\(next.families.map { $0 == .v4 ? "IPv4" : "IPv6" }.joined(separator: ", "))) go through "
                  + "\(current.device), its uplink addresses " + next.uplinkAddresses.map(\.description).joined(separator: ", ")
            guard failures.isEmpty else {
                return NetworkChange(learnt: false, sentence: "\(name)'s network changed; following it failed: "
                                     + failures.map(\.description).joined(separator: "; "))
            }
            return NetworkChange(learnt: true, sentence: "\(name)'s network changed: \(now)")
        }
    }
}
