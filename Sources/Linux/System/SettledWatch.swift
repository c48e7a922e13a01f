#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision
import Foundation

/// A thread that waits on one descriptor of the kernel's news (inotify, a netlink group), and
/// once something that matters arrived and the news went quiet for `settle` — a change comes in
/// several steps, and a half-made one is no change — tells its owner. `stop` ends it.
///
/// `drain` reads everything pending and says whether any of it mattered; `changed` acts on it.
/// Both run on the thread.
final class SettledWatch: Sendable {
    private let stopReader: Int32
    private let stopWriter: Int32
    private let done = DispatchSemaphore(value: 0)

    /// Nil when the stop pipe cannot be made (errno says why).
    init?(descriptor: Int32, name: String, settleMilliseconds: Int32,
          drain: @escaping @Sendable () -> Bool, changed: @escaping @Sendable () -> Void) {
        var pipe: [Int32] = [-1, -1]
        guard ctv_pipe_cloexec(&pipe) == 0 else { return nil }
        stopReader = pipe[0]
        stopWriter = pipe[1]
        let thread = Thread { [stopReader, done] in
            Self.watch(descriptor, stopReader: stopReader, settle: settleMilliseconds, drain: drain, changed: changed)
            done.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Ends the thread and waits for it (the caller closes its descriptor afterwards).
    func stop() {
        close(stopWriter)
        done.wait()
        close(stopReader)
    }

    private static func watch(_ descriptor: Int32, stopReader: Int32, settle: Int32,
                              drain: () -> Bool, changed: () -> Void) {
        while true {
            var waiting = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: stopReader, events: Int16(POLLIN), revents: 0)]
            guard poll(&waiting, 2, -1) >= 0 || errno == EINTR else { return }
            if waiting[1].revents != 0 { return }
            guard waiting[0].revents != 0, drain() else { continue }
            while true {
                var again = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
                guard poll(&again, 1, settle) > 0 else { break }
                _ = drain()
            }
            changed()
        }
    }
}
