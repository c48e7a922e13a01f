import Foundation

/// A thread of this process as the kernel sees it (/proc/self/task): a test that must know another
/// thread has gone to sleep — in epoll, on a futex — waits until the kernel says so, rather than
/// sleeping a fixed time and hoping it has.
package enum KernelThread {
    /// The calling thread's kernel id, for another thread to watch it by (/proc/thread-self
    /// names it: Glibc's gettid is not visible to Swift).
    package static var currentID: pid_t {
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
        return link.split(separator: "/").last.flatMap { pid_t($0) } ?? -1
    }

    /// Where thread `id` of this process sleeps in the kernel — its wait channel, such as
    /// "do_epoll_wait" or "futex_wait_queue" — or nil while it runs or waits to run.
    static func waitChannel(of id: pid_t) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/self/task/\(id)/stat", encoding: .utf8),
              let nameEnd = stat.lastIndex(of: ")"),
              let state = stat[stat.index(after: nameEnd)...].first(where: { $0 != " " }),
              state == "S" || state == "D" else { return nil }
        return (try? String(contentsOfFile: "/proc/self/task/\(id)/wchan", encoding: .utf8)) ?? ""
    }

    /// Waits until thread `id` is blocked in a wait channel containing `channel` (for a futex,
    /// "futex"; for epoll, "epoll"), for up to `seconds`; whether it did.
    package static func waitUntilBlocked(_ id: pid_t, in channel: String, within seconds: Double = 10) -> Bool {
        eventually(within: seconds, poll: 500) { waitChannel(of: id)?.contains(channel) == true }
    }
}
