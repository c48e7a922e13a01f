#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision

/// A `ctv_spawn_request` with every string and array it points to, alive for one `ctv_spawn`
/// call (the init gets its own copy of memory at the clone, so ours is freed right after).
struct SpawnRequest: Sendable {
    let path: String
    let arguments: [String]
    let environment: [String]
    let namespaceFD: Int32
    let sysfsSource: String?
    let binds: [InspectionTrustPlan.Mount]
    let account: CommandAccount?
    let openFileLimit: OpenFileLimit?

    init(path: String, command: MonitoredCommand, environment: [String: String], namespace: CommandNamespace?,
         namespaceFD: Int32, trustMounts: [InspectionTrustPlan.Mount] = []) {
        self.path = path
        arguments = command.arguments
        self.environment = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        self.namespaceFD = namespaceFD
        sysfsSource = namespace?.name
        // After /etc/netns's files, in the plan's order (a directory before the files inside it).
        binds = (namespace.map { $0.bindMounts(entries: $0.etcEntries()) } ?? []).map { .init(source: $0.source, target: $0.target) }
            + trustMounts
        account = command.account
        openFileLimit = command.openFileLimit
    }

    /// Calls ctv_spawn; the init's ids, or why there is none.
    func spawn() -> Result<ctv_spawned, CommandStartFailure> {
        var owned: [UnsafeMutablePointer<CChar>] = []
        defer { owned.forEach { free($0) } }
        func c(_ text: String) -> UnsafeMutablePointer<CChar> {
            let copy = strdup(text)!
            owned.append(copy)
            return copy
        }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map(c) + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map(c) + [nil]
        let mounts = binds.map { bind in
            guard let beneath = bind.noLinksBeneath else { return ctv_bind_mount(source: c(bind.source), target: c(bind.target), beneath: nil) }
            // A target outside its directory is walked from / with no link followed at all.
            let inside = bind.target.hasPrefix(beneath + "/")
            return ctv_bind_mount(source: c(bind.source), target: c(inside ? String(bind.target.dropFirst(beneath.count + 1)) : bind.target),
                                  beneath: c(inside ? beneath : "/"))
        }
        let groups = account?.groups ?? []
        let relayed: [Int32] = SignalRelay.relayed
        let sysfs = sysfsSource.map(c)
        var spawned = ctv_spawned()
        let error: Int32 = argv.withUnsafeBufferPointer { argv in
            envp.withUnsafeBufferPointer { envp in
                mounts.withUnsafeBufferPointer { mounts in
                    groups.withUnsafeBufferPointer { groups in
                        relayed.withUnsafeBufferPointer { relayed in
                            var request = ctv_spawn_request(
                                path: c(path), argv: argv.baseAddress, envp: envp.baseAddress,
                                network_namespace_fd: namespaceFD, sysfs_source: sysfs,
                                binds: mounts.baseAddress, bind_count: Int32(mounts.count),
                                change_user: account == nil ? 0 : 1, uid: account?.uid ?? 0, gid: account?.gid ?? 0,
                                groups: groups.baseAddress, group_count: Int32(groups.count),
                                restore_open_file_limit: openFileLimit == nil ? 0 : 1,
                                open_file_soft: openFileLimit?.soft ?? 0, open_file_hard: openFileLimit?.hard ?? 0,
                                relayed_signals: relayed.baseAddress, relayed_count: Int32(relayed.count),
                                ignored_signals: InheritedSignals.ignored)
                            return ctv_spawn(&request, &spawned)
                        }
                    }
                }
            }
        }
        guard error == 0 else { return .failure(.spawnFailed(what: "making its supervisor process", errno: error)) }
        return .success(spawned)
    }
}
