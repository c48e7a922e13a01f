#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision
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
/// One thread of its own, blocked in poll, ended by `stop`.
package final class ResolverWatch: Sendable {
    /// How long the configuration must stay quiet after a change before it is read: writers
    /// replace it in a few steps (write a temporary file, rename), and a half-written list is no list.
    static let settle: Int32 = 100

    private let state: Mutex<ResolverStatus>
    private let inotify: Int32
    /// A pipe: `stop` closes its writing end, and the thread wakes to an end of file.
    private let stopReader: Int32
    private let stopWriter: Int32
    private let paths: Paths
    private let done = DispatchSemaphore(value: 0)

    /// The files that make up the configuration.
    struct Paths: Sendable {
        let resolvConf: String
        let upstreams: String
    }

    /// Starts watching; nil when inotify cannot be had (the limit of watches reached), which
    /// `tell` hears: the run goes on with the servers it started with.
    package init?(status: ResolverStatus, namespace: String, resolvConf: String = "/etc/resolv.conf",
                  upstreams: String = "/run/systemd/resolve/resolv.conf", tell: @escaping @Sendable (String) -> Void) {
        let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        var stop: [Int32] = [-1, -1]
        guard inotify >= 0, ctv_pipe_cloexec(&stop) == 0 else {
            tell("cannot watch this machine's resolvers for changes (\(SystemError.text(errno))): the run keeps the ones it started with")
            if inotify >= 0 { close(inotify) }
            return nil
        }
        state = Mutex(status)
        self.inotify = inotify
        stopReader = stop[0]
        stopWriter = stop[1]
        paths = Paths(resolvConf: resolvConf, upstreams: upstreams)
        addWatches()
        let thread = Thread { [self] in
            watch(namespace: namespace, tell: tell)
            done.signal()
        }
        thread.name = "resolver watch"
        thread.start()
    }

    /// The resolvers announced and the changes counted so far.
    package var status: ResolverStatus { state.withLock { $0 } }

    /// Ends the thread and waits for it.
    package func stop() {
        close(stopWriter)
        done.wait()
        close(inotify)
        close(stopReader)
    }

    /// The files themselves (their current inodes: a replaced file is watched anew after each
    /// change) and the folders that hold them, for a replacement by rename.
    private func addWatches() {
        let files = [paths.resolvConf, paths.upstreams]
        let resolved = files.map { realpath($0, nil).map { pointer in defer { free(pointer) }; return String(cString: pointer) } }
        let fileMask = UInt32(IN_CLOSE_WRITE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
        let folderMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_CLOSE_WRITE)
        for file in files + resolved.compactMap({ $0 }) {
            _ = inotify_add_watch(inotify, file, fileMask)
            _ = inotify_add_watch(inotify, (file as NSString).deletingLastPathComponent, folderMask | UInt32(IN_ONLYDIR))
        }
    }

    private func watch(namespace: String, tell: @Sendable (String) -> Void) {
        var events = [UInt8](repeating: 0, count: 4096)
        while true {
            var waiting = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: stopReader, events: Int16(POLLIN), revents: 0)]
            guard poll(&waiting, 2, -1) >= 0 || errno == EINTR else { return }
            if waiting[1].revents != 0 { return }
            guard waiting[0].revents != 0, drainEvents(&events) else { continue }
            // Quiet for `settle` ms before reading: the rest of the writer's steps arrive meanwhile.
            while true {
                var again = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)]
                guard poll(&again, 1, Self.settle) > 0 else { break }
                _ = drainEvents(&events)
            }
            addWatches()
            relearn(namespace: namespace, tell: tell)
        }
    }

    /// Reads every pending event; whether one concerned the configuration (a folder's event
    /// about another file does not).
    private func drainEvents(_ buffer: inout [UInt8]) -> Bool {
        let names: Set<String> = Set([paths.resolvConf, paths.upstreams].flatMap { path -> [String] in
            let target = realpath(path, nil).map { pointer in defer { free(pointer) }; return String(cString: pointer) }
            return [(path as NSString).lastPathComponent] + (target.map { [($0 as NSString).lastPathComponent] } ?? [])
        })
        var relevant = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            guard count > 0 else { return relevant }
            var offset = 0
            buffer.withUnsafeBytes { bytes in
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

    private func relearn(namespace: String, tell: @Sendable (String) -> Void) {
        let reported = NamespaceResolvConf.hostResolvers(resolvConf: paths.resolvConf, upstreams: paths.upstreams)
        let before = status
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
        state.withLock { $0 = after }
    }
}
