#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision
import Foundation
import Synchronization

/// Starts the service as a process of its own (`up … --foreground --detached`) and hears how its
/// start went: it reads what the service prints until the service lets go of the pipe — which it
/// does once live, turning to its log — or ends (`output`). The service runs in a session of its own
/// (setsid), with every signal at its default and none blocked, so neither a terminal closing nor
/// a mask inherited from the starter reaches it. A thread reaps it whenever it ends, so a
/// long-lived starter (the web app) keeps no zombie.
final class ServiceLauncher: Sendable {
    let pid: pid_t
    private let output: Int32
    private let exit: Mutex<Int32?>

    struct Failure: Error, CustomStringConvertible {
        let call: String
        let errno: Int32
        var description: String { "cannot start the service: \(call): \(String(cString: strerror(errno)))" }
    }

    /// Spawns `executable` with `arguments`; standard input is /dev/null, output and errors the pipe.
    init(executable: String, arguments: [String]) throws(Failure) {
        var ends: [Int32] = [-1, -1]
        guard ctv_pipe_cloexec(&ends) == 0 else { throw Failure(call: "pipe2", errno: errno) }
        defer { close(ends[1]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, ends[1], STDERR_FILENO)
        // Nothing else of the starter's: a descriptor the service kept would keep whoever waits on
        // the starter (Foundation's Process watches a socket its child inherits) waiting for the
        // service's end instead.
        ctv_spawn_actions_close_from(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | Self.setSession))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard spawned == 0 else {
            close(ends[0])
            throw Failure(call: "posix_spawn \(executable)", errno: spawned)
        }
        self.pid = pid
        output = ends[0]
        exit = Mutex(nil)
        Thread { [self] in
            var status: Int32 = 0
            while waitpid(self.pid, &status, 0) < 0 && errno == EINTR {}
            self.exit.withLock { $0 = status }
        }.start()
    }

    /// glibc's POSIX_SPAWN_SETSID (spawn.h, under _GNU_SOURCE, which Swift's import leaves out).
    private static let setSession: Int32 = 0x80

    /// What the service said before it let go of the pipe, or nil when it still held it at
    /// `deadline`. Letting go is either going live (it turns to its log) or ending: `exitStatus`
    /// and the service's record tell which.
    func output(within deadline: Duration) -> (said: String, letGo: Bool) {
        defer { close(output) }
        let end = ContinuousClock.now + deadline
        var said = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = end - ContinuousClock.now
            guard left > .zero else { return (Self.text(said), false) }
            var watch = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watch, 1, Int32(min(left / .milliseconds(1), 1_000)) + 1)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { continue }
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count > 0 {
                said.append(contentsOf: chunk[..<count])
                continue
            }
            return (Self.text(said), true)
        }
    }

    /// Whether the service has ended, and how (a wait status).
    var exitStatus: Int32? { exit.withLock { $0 } }

    private static func text(_ data: Data) -> String {
        String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
