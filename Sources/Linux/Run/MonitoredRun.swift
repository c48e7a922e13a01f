#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// `tunnelvision run`'s set-up and tear-down: CMD in a fresh network namespace whose only way out
/// is the tunnel, for exactly CMD's life, and everything made for it taken down in order at the
/// end — also when CMD fails. The command parses, calls `init` then `run()`, and renders.
package struct MonitoredRun: Sendable {
    /// What the person asked for.
    package struct Options: Sendable, Equatable {
        package var command: [String]
        package var dataDirectory: String?
        /// nil: the settings'.
        package var captureDetail: CaptureDetail?
        package var captureOff = false
        /// `--no-programs`: no flow's program is asked.
        package var namesPrograms = true
        package var mtu = TunnelAddressing.mtu
        /// `--inspect` and its options; nil: no TLS inspection.
        package var inspection: InspectionRunOptions?

        package init(command: [String]) { self.command = command }
    }

    /// How CMD ended, who it ran as and what the tunnel recorded of it.
    package struct Outcome: Sendable {
        package let ending: MonitoredCommand.Ending
        /// nil: CMD ran as root (no invoking user behind sudo).
        package let account: CommandAccount?
        package let recording: SessionRecording
        /// Why the tunnel stopped under CMD, if it did: `run` then says so and exits non-zero.
        package let tunnelFailure: TunnelFailure?
        /// What the trust probe measured for `--inspect` (nil without it).
        package var trust: TrustVerdict?

        /// `run`'s own status: CMD's, but 1 when the tunnel failed under it — that is run's
        /// failure, whatever CMD made of losing its network.
        package var exitStatus: Int32 { tunnelFailure == nil ? ending.exitStatus : 1 }
    }

    package let options: Options
    let environment: [String: String]
    package let dataDirectory: URL
    let captureEnabled: Bool
    /// The settings' switch for keeping decrypted content (ADR 0007: off unless the person said so).
    let plaintextPersistenceEnabled: Bool
    let captureDetail: CaptureDetail
    /// nil when the settings could not be read: no limit is guessed.
    let retention: RetentionSettings?
    let announced: [IPAddress]
    /// Who CMD runs as: the user behind sudo, or nil for root.
    let account: CommandAccount?
    /// What the person should know before CMD starts (the settings, the resolvers).
    package let warnings: [RunWarning]
    /// `--inspect`'s local CA, the system's trust store CMD's own is made from and the tools
    /// for NSS's; nil without it.
    let inspectionTrust: (ca: LocalCA, system: InspectionSystemTrust, nssTools: InspectionNSSDatabase.Tools)?

    /// Checks what a person can act on before anything is made (root, the TUN device, CMD), then
    /// prepares the data directory and reads the settings and this machine's resolvers.
    package init(options: Options, environment: [String: String]) throws(RunFailure) {
        guard geteuid() == 0 else {
            throw .notRoot(command: "run", makes: "a network namespace and a TUN device",
                           retry: "tunnelvision run -- \(options.command.joined(separator: " "))")
        }
        guard access("/dev/net/tun", F_OK) == 0 else { throw .noTUNDevice }
        guard let program = options.command.first, MonitoredCommand.canFind(program, environment: environment) else {
            throw .commandNotFound(options.command.first ?? "")
        }
        do { account = try CommandAccount.invoking(environment: environment, effectiveUserID: geteuid()) } catch {
            throw .command(error)
        }
        self.options = options
        self.environment = environment
        dataDirectory = DataDirectory.location(override: options.dataDirectory, environment: environment,
                                               effectiveUserID: geteuid())
        do { try DataDirectory.prepare(dataDirectory) } catch { throw .dataDirectory(error) }
        inspectionTrust = try Self.localCA(for: options, in: dataDirectory).map {
            ($0, InspectionSystemTrust.survey(), InspectionNSSDatabase.Tools.locate())
        }
        let reading = SettingsStore(dataDirectory: dataDirectory).loadForSession()
        captureDetail = options.captureDetail ?? reading.settings.captureDetail
        captureEnabled = !options.captureOff && reading.settings.captureEnabled
        plaintextPersistenceEnabled = reading.settings.plaintextPersistenceEnabled
        retention = reading.problem == nil ? reading.settings.retention : nil
        announced = TunnelResolvers.announceable(from: NamespaceResolvConf.hostResolvers() ?? [])
        warnings = Self.warnings(reading: reading, announced: announced)
            + (inspectionTrust?.system.missingBundleNotice.map { [.noSystemTrustBundle($0)] } ?? [])
    }

    /// `--inspect`'s local CA: refused when there is none, or when there is one that cannot be used.
    static func localCA(for options: Options, in dataDirectory: URL) throws(RunFailure) -> LocalCA? {
        guard options.inspection != nil else { return nil }
        let loaded: LocalCA?
        do { loaded = try LocalCA.load(dataDirectory: dataDirectory) } catch { throw .inspection(.ca(error)) }
        guard let loaded else { throw .inspection(.noCA(dataDirectory: dataDirectory.path)) }
        return loaded
    }

    /// `--inspect`'s trust store for CMD, written to a private directory and measured by the trust
    /// probe; refused unless the probe says trusted. The caller removes it when the run ends.
    func commandTrust() throws(RunFailure) -> (bundle: InspectionTrustBundle, verdict: TrustVerdict)? {
        guard let (ca, system, nssTools) = inspectionTrust else { return nil }
        let bundle: InspectionTrustBundle
        let home = InspectionNSSPlan.home(account: account, environment: environment) { CommandAccount.lookUp(uid: 0)?.home }
        do {
            bundle = try InspectionTrustBundle.write(ca: ca, system: system, parent: InspectionTrustLeftovers.parent(environment: environment),
                                                     owner: account, nss: (home, nssTools))
        } catch { throw .inspection(error) }
        // Minted by the CA the tunnel mints with: the leaf measured is a leaf as the tunnel makes them.
        let verdict = TrustProbe.evaluate(bundle: URL(fileURLWithPath: bundle.plan.bundleFile)) { host in
            try ca.authority.mintLeaf(forHost: host)
        }
        guard verdict == .trusted else {
            bundle.remove()
            throw .inspection(.probe(verdict))
        }
        return (bundle, verdict)
    }

    /// Why `run` does not start over settings it could not read: the factory settings capture
    /// every packet in full, and the file may well say capture off. The safe side is to start only
    /// once the person has decided capture for this run (`--no-capture`) or fixed the file.
    package var settingsRefusal: String? { Self.settingsRefusal(warnings, options: options) }

    static func settingsRefusal(_ warnings: [RunWarning], options: Options) -> String? {
        guard !options.captureOff else { return nil }
        for case let .settingsUnreadable(problem) in warnings {
            return "run refuses to start on the factory settings (full capture) in place of settings it cannot read: "
                + "\(problem). Fix the file ('tunnelvision settings' shows what is wrong; 'tunnelvision settings set "
                + "capture on --force' sets it aside), or give --no-capture for this run. Nothing was started."
        }
        return nil
    }

    /// The warnings of a run with these settings and resolvers, in the order they concern it.
    static func warnings(reading: SettingsReading, announced: [IPAddress]) -> [RunWarning] {
        var warnings: [RunWarning] = reading.problem.map { [.settingsUnreadable($0)] } ?? []
        for (value, support) in SettingName.unhonoured(in: reading.settings) {
            if case let .refused(reason) = support { warnings.append(.settingNotHonoured(value, reason: reason)) }
        }
        if announced.isEmpty { warnings.append(.noResolver) }
        return warnings
    }

    /// How long CMD has to end after SIGTERM when the tunnel under it fails, before its whole PID
    /// namespace is killed: what service managers give (systemd's default is 90 s; a command with
    /// no network left has little to save), kept short so a dead tunnel is not waited on long.
    static let terminationGrace = Duration.seconds(5)

    /// Makes the namespace, the TUN device, the namespace's resolv.conf and the tunnel session;
    /// runs CMD inside until it ends; stops the tunnel and reads back what this run recorded; then
    /// takes everything down. `notice` gets a sentence the moment something the person should
    /// know happens while CMD runs — capture or history stopping on a full disk, the tunnel
    /// failing; it is called from the tunnel's threads and must not wait. When the tunnel fails,
    /// CMD is stopped (SIGTERM, then after `terminationGrace` its whole PID namespace) and the
    /// outcome carries the failure.
    package func run(notice: @escaping @Sendable (String) -> Void = { _ in }) async throws(RunFailure) -> Outcome {
        // First, so a signal during set-up is held for CMD rather than killing us half-made.
        let signalRecords: Int32
        do { signalRecords = try RunningCommand.installSignalRelay() } catch { throw .command(error) }
        let usualFileLimit = OpenFileLimit.raiseToHardLimit()
        let swept: LeftoverSweeper.Outcome
        do { swept = try LeftoverSweeper.sweepLeavingNotice(prefix: "tvrun", dataDirectory: dataDirectory) } catch {
            throw .dataDirectory(error)
        }
        let trustLeftovers = InspectionTrustLeftovers.sweep(parent: InspectionTrustLeftovers.parent(environment: environment))
        // Before anything of the tunnel: a trust store the probe does not call trusted starts nothing.
        let trust = try commandTrust()
        defer { trust?.bundle.remove() }
        if let trust { notice("TLS inspection: \(trust.verdict.sentence)") }
        if trust != nil, !plaintextPersistenceEnabled {
            notice("TLS inspection: decrypted content is read but not kept (keeping it is off; "
                   + "'\(SettingName.plaintextPersistence.command("on"))' keeps it from the next run)")
        }
        if let missing = trust?.bundle.nssNotice { notice("TLS inspection: \(missing)") }
        let namespace: NetworkNamespace
        do { namespace = try NetworkNamespace.create(NamespaceName.make(prefix: "tvrun")) } catch { throw .system(error) }
        defer {
            if let failure = namespace.delete() {
                notice("cannot remove the network namespace \(namespace.name): \(failure); the next run removes it")
            }
        }
        let device: TUNDevice
        do { device = try TUNDevice() } catch { throw .device(error) }
        defer { device.close() }
        do { try TunnelNamespacePlan.apply(device: device.name, namespace: namespace.name, mtu: options.mtu) } catch {
            throw .system(error)
        }
        let resolvConf: NamespaceResolvConf
        do { resolvConf = try NamespaceResolvConf(namespace: namespace.name, servers: announced) } catch { throw .system(error) }
        defer { resolvConf.remove() }

        var sessionOptions = TunnelSession.Options()
        sessionOptions.captureEnabled = captureEnabled
        sessionOptions.captureDetail = captureDetail
        sessionOptions.retention = retention
        sessionOptions.mtu = options.mtu
        sessionOptions.namesPrograms = options.namesPrograms
        sessionOptions.origin = "run " + options.command.joined(separator: " ")
        sessionOptions.inspection = options.inspection
        // Decrypted content is kept only by a run that decrypts, and only while its switch is on.
        sessionOptions.plaintextPersistenceEnabled = options.inspection != nil && plaintextPersistenceEnabled
        let reported = NamespaceResolvConf.hostResolvers()
        let startingResolvers = ResolverStatus(announced: announced.map(\.description), reportedAtStart: reported?.map(\.description))
        // A network change while CMD runs is caught up with (or counted when it teaches nothing).
        let resolverWatch = ResolverWatch(status: startingResolvers, namespace: namespace.name) { notice($0) }
        defer { resolverWatch?.stop() }
        let stopper = CommandStopper(grace: Self.terminationGrace)
        let session: TunnelSession
        do {
            session = try await TunnelSession(dataDirectory: dataDirectory, device: device, options: sessionOptions,
                                              resolvers: { resolverWatch?.status ?? startingResolvers },
                                              onFailure: { failure in
                                                  notice("\(failure); stopping \(options.command[0])")
                                                  stopper.stop()
                                              },
                                              recordingStopped: { [dataDirectory] stop in
                                                  notice(stop.sentence(dataDirectory: dataDirectory.path))
                                              })
        } catch { throw .session(error) }
        // One line for everything a killed run left, the ring's stale files (swept as the session
        // opened it) included.
        if let recovered = swept.notice(alsoRemoved: trustLeftovers + session.ring.sweptLeftovers) {
            FileDescriptor.writeAll(STDERR_FILENO, text: "tunnelvision: \(RunWarning.recovered(recovered))\n")
        }

        let command = MonitoredCommand(arguments: options.command, account: account, openFileLimit: usualFileLimit)
        let ending: MonitoredCommand.Ending
        do throws(CommandStartFailure) {
            // CMD shares our process group, so the terminal's signals reach it from the kernel;
            // what a process sends us alone is relayed (SignalRelay). When the tunnel fails, the
            // stopper ends CMD cleanly.
            let running = try RunningCommand.start(command, namespace: CommandNamespace(name: namespace.name),
                                                   environment: environment.merging(trust?.bundle.plan.environment ?? [:]) { $1 },
                                                   signalRecords: signalRecords,
                                                   trustMounts: trust?.bundle.mounts ?? [])
            stopper.watch(running)
            ending = try await running.ending()
        } catch {
            await session.stop()
            throw .command(error)
        }
        await session.stop()
        return Outcome(ending: ending, account: account, recording: await SessionRecording.read(session),
                       tunnelFailure: session.failure, trust: trust?.verdict)
    }
}
