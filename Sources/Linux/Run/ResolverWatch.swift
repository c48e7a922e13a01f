#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared
import Synchronization

/// Notices when this machine's resolver configuration changes while a run goes on — the seed's
/// network change: a new network, a VPN, a DHCP lease — and catches up: inotify reports
/// resolv.conf written or replaced (the file itself, its folder, and what it links to, such as
/// systemd-resolved's files), the configuration is read again, and other usable servers are
/// written into the run's namespace resolv.conf in place (the command's bind mount holds that
/// file, so it reads them at once). Each change is counted in the `ResolverStatus` the stats
/// report, learnt or not, which is what Diagnostics' `.stale` reads.
///
/// One thread of its own (`SettledWatch`), ended by `stop`.
package final class ResolverWatch: Sendable {
    /// How long the configuration must stay quiet after a change before it is read: writers
    /// replace it in a few steps (write a temporary file, rename), and a half-written list is no list.
    static let settleMilliseconds: Int32 = 100

    private let state: StatusBox
    private let inotify: Int32
    private let paths: Paths
    private let watch: SettledWatch

    /// The files that make up the configuration.
    struct Paths: Sendable {
        let resolvConf: String
        let upstreams: String

        /// Each file, and what it links to now.
        var files: [String] {
            [resolvConf, upstreams].flatMap { path in
                [path] + (realpath(path, nil).map { pointer in defer { free(pointer) }; return [String(cString: pointer)] } ?? [])
            }
        }
    }

    /// Starts watching; nil when inotify cannot be had (the limit of watches reached), which
    /// `tell` hears: the run goes on with the servers it started with.
    package init?(status: ResolverStatus, namespace: String, resolvConf: String = "/etc/resolv.conf",
                  upstreams: String = "/run/systemd/resolve/resolv.conf", tell: @escaping @Sendable (String) -> Void) {
        let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        let paths = Paths(resolvConf: resolvConf, upstreams: upstreams)
        let state = StatusBox(status)
        guard inotify >= 0 else {
            tell("cannot watch this machine's resolvers for changes (\(SystemError.text(errno))): the run keeps the ones it started with")
            return nil
        }
        Self.addWatches(inotify, paths)
        guard let watch = SettledWatch(descriptor: inotify, name: "resolver watch", settleMilliseconds: Self.settleMilliseconds,
                                       drain: { Self.drainEvents(inotify, paths) },
                                       changed: {
                                           Self.addWatches(inotify, paths)
                                           Self.relearn(state, paths, namespace: namespace, tell: tell)
                                       }) else {
            tell("cannot watch this machine's resolvers for changes (\(SystemError.text(errno))): the run keeps the ones it started with")
            close(inotify)
            return nil
        }
        self.state = state
        self.inotify = inotify
        self.paths = paths
        self.watch = watch
    }

    /// The resolvers announced and the changes counted so far.
    package var status: ResolverStatus { state.value.withLock { $0 } }

    /// The status, shared by the watch's thread and whoever asks for the stats.
    final class StatusBox: Sendable {
        let value: Mutex<ResolverStatus>
        init(_ status: ResolverStatus) { value = Mutex(status) }
    }

    /// Ends the watch and waits for it.
    package func stop() {
        watch.stop()
        close(inotify)
    }

    /// The files themselves (their current inodes: a replaced file is watched anew after each
    /// change) and the folders that hold them, for a replacement by rename.
    private static func addWatches(_ inotify: Int32, _ paths: Paths) {
        let fileMask = UInt32(IN_CLOSE_WRITE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
        let folderMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_CLOSE_WRITE | IN_ONLYDIR)
        for file in paths.files {
            _ = inotify_add_watch(inotify, file, fileMask)
            _ = inotify_add_watch(inotify, (file as NSString).deletingLastPathComponent, folderMask)
        }
    }

    /// Reads every pending event; whether one concerned the configuration (a folder's event
    /// about another file does not).
    private static func drainEvents(_ inotify: Int32, _ paths: Paths) -> Bool {
        let names = Set(paths.files.map { ($0 as NSString).lastPathComponent })
        var buffer = [UInt8](repeating: 0, count: 4096)
        var relevant = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            guard count > 0 else { return relevant }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                while offset + 16 <= count {
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = bytes[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                    // A file's own watch carries no name; a folder's names the entry.
                    if nameBytes.isEmpty || names.contains(String(decoding: nameBytes, as: UTF8.self)) { relevant = true }
                    offset += 16 + length
                }
            }
        }
    }

    private static func relearn(_ state: StatusBox, _ paths: Paths, namespace: String, tell: @Sendable (String) -> Void) {
        let reported = NamespaceResolvConf.hostResolvers(resolvConf: paths.resolvConf, upstreams: paths.upstreams)
        let before = state.value.withLock { $0 }
        var after = before
        if let learnt = after.noteNetworkChange(reported: reported) {
            do {
                _ = try NamespaceResolvConf(namespace: namespace, servers: learnt)
                tell("this machine's resolvers changed: the command now gets " + learnt.map(\.description).joined(separator: ", "))
            } catch {
                after.announced = before.announced
                after.networkChangesLearned = before.networkChangesLearned
                tell("this machine's resolvers changed, but the command's could not be rewritten: \(error)")
            }
        }
        state.value.withLock { $0 = after }
    }
}
