#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision
import Shared

/// Hears a routed target's network change — a link, an address or a route added or taken away
/// (rtnetlink's multicast groups, on a socket made inside the target) — and, once it has been
/// quiet for a moment, has the service learn the target again (`RoutedService`). Our own rules
/// and routes are heard too; learning again then finds nothing new and changes nothing.
final class RouteChangeWatch: Sendable {
    /// A new uplink comes up in several messages (link, address, route): learnt once they stop.
    static let settleMilliseconds: Int32 = 200

    private let socket: Int32
    private let watch: SettledWatch

    /// Watches the namespace `path` refers to; nil, with the reason, when the socket cannot be
    /// made there or the thread cannot start.
    init(namespace path: String, changed: @escaping @Sendable () -> Void) throws(CommandError) {
        let namespace = open(path, O_RDONLY | O_CLOEXEC)
        guard namespace >= 0 else { throw .launchFailed("network changes", "cannot open \(path): \(SystemError.text(errno))") }
        defer { close(namespace) }
        let made = ctv_rtnetlink_listen(namespace)
        guard made >= 0 else { throw .launchFailed("network changes", "cannot listen for them: \(SystemError.text(-made))") }
        guard let watch = SettledWatch(descriptor: made, name: "route watch", settleMilliseconds: Self.settleMilliseconds,
                                       drain: { Self.drain(made) }, changed: changed) else {
            let code = errno
            close(made)
            throw .launchFailed("network changes", "cannot start watching: \(SystemError.text(code))")
        }
        socket = made
        self.watch = watch
    }

    /// Ends the watch and waits for it.
    func stop() {
        watch.stop()
        close(socket)
    }

    /// Reads every message waiting. Any is news; so is an overflow (ENOBUFS: some were lost,
    /// so the target is learnt again whole).
    private static func drain(_ socket: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 8192)
        var heard = false
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 { heard = true; continue }
            if count < 0 && errno == ENOBUFS { heard = true; continue }
            if count < 0 && errno == EINTR { continue }
            return heard
        }
    }
}
