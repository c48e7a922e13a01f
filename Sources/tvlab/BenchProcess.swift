#if canImport(Glibc)
import Glibc
#endif
import Linux
import Synchronization

/// A program `bench tunnel` started: servers, relays and clients. Each starts in a process group
/// of its own, so Ctrl-C at the terminal reaches tvlab alone and tvlab takes everything down in
/// order; its standard streams are /dev/null or files, never tvlab's own.
final class BenchProcess {
    let name: String
    let pid: pid_t
    private var outcome: Subprocess.Outcome?
    private let stopwatch = Stopwatch()

    /// How long a program asked to stop (SIGTERM) may take before it is killed (SIGKILL): long
    /// enough for `tunnelvision run` to stop its tunnel and remove its namespace.
    static let stopGraceSeconds = 10.0

    /// Starts `argv` (argv[0] looked up like iproute2's commands), called `name` in messages;
    /// standard output and error go to the given files, else to /dev/null.
    init(_ argv: [String], name: String, output: String? = nil, errors: String? = nil) throws(Failure) {
        guard let program = argv.first, let path = ExternalCommand.locate(program) else {
            throw Failure("\(argv.first ?? "") is not installed")
        }
        self.name = name
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errors ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own group (pgid = its pid), every signal at its default and none blocked: the child
        // behaves as from a fresh shell whatever tvlab inherited. An ignored SIGHUP (tvlab under
        // nohup, or a harness that ignores it) would pass through `tunnelvision run` to its
        // command, which then outlives the HUP the fault suite sends; a blocked one never arrives.
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let arguments: [UnsafeMutablePointer<CChar>?] = ([path] + argv.dropFirst()).map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, &attributes, arguments, environ)
        guard spawned == 0 else { throw Failure("cannot run \(path)", errno: spawned) }
        self.pid = pid
    }

    /// How it ended, if it has; reaps it then.
    func poll() -> Subprocess.Outcome? {
        if let outcome { return outcome }
        var status: Int32 = 0
        var usage = rusage()
        let reaped = wait4(pid, &status, WNOHANG, &usage)
        if reaped == pid {
            outcome = Subprocess.Outcome(seconds: stopwatch.elapsedSeconds, waitStatus: status, usage: usage)
        } else if reaped < 0 && errno == ECHILD {
            outcome = Subprocess.Outcome(seconds: stopwatch.elapsedSeconds, exitStatus: nil, signal: SIGKILL)
        }
        return outcome
    }

    /// Waits for it to end by itself, for at most `seconds`; then stops it and fails. Polls, so a
    /// Ctrl-C to tvlab is noticed within milliseconds and unwinds through the callers' cleanup.
    func wait(seconds: Double) throws(Failure) -> Subprocess.Outcome {
        let waited = Stopwatch()
        while true {
            if let outcome = poll() { return outcome }
            try Interruption.check()
            if waited.elapsedSeconds > seconds {
                stop()
                throw Failure("\(name) did not finish within \(Int(seconds)) s; stopped it")
            }
            usleep(5_000)
        }
    }

    /// Ends it and everything it started (`tunnelvision run` puts its command in a group of
    /// its own, so a group signal would miss it): SIGTERM to the whole tree, SIGKILL to what is
    /// left after the grace period, and reaps it. Safe to call when it has already ended.
    func stop() {
        guard poll() == nil else { return }
        let tree = [pid] + Self.descendants(of: pid)
        tree.forEach { Glibc.kill($0, SIGTERM) }
        let stopping = Stopwatch()
        while poll() == nil && stopping.elapsedSeconds < Self.stopGraceSeconds { usleep(5_000) }
        guard poll() == nil else { return }
        ([pid] + Self.descendants(of: pid)).forEach { Glibc.kill($0, SIGKILL) }
        while poll() == nil { usleep(5_000) }
    }

    /// Ends it at once (servers hold no state worth a clean stop) and reaps it.
    func kill() {
        guard poll() == nil else { return }
        Glibc.kill(pid, SIGKILL)
        while poll() == nil { usleep(1_000) }
    }

    /// Every live descendant of `pid`, children before grandchildren, from /proc's children lists.
    static func descendants(of pid: pid_t) -> [pid_t] {
        var found: [pid_t] = []
        var queue = [pid]
        while let parent = queue.popLast(), found.count < 10_000 {
            let children = threadIDs(of: parent).flatMap { thread in
                readText("/proc/\(parent)/task/\(thread)/children").split(separator: " ").compactMap { pid_t($0) }
            }
            found += children
            queue += children
        }
        return found
    }

    private static func threadIDs(of pid: pid_t) -> [String] {
        guard let directory = opendir("/proc/\(pid)/task") else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// A small /proc file's text, or "" when it cannot be read.
    static func readText(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// SIGINT and SIGTERM while `bench tunnel` runs: the handler only records the signal; the
/// waiting loops notice it and throw, so the lab and every process are removed by the same
/// cleanup a failure runs.
enum Interruption {
    private static let received = Atomic<Int32>(0)

    /// Installs the handlers. A handler (not SIG_IGN) is reset to the default in programs
    /// started afterwards.
    static func install() {
        _ = received.load(ordering: .relaxed)   // initialized here, never first in a handler
        Glibc.signal(SIGINT) { Interruption.received.store($0, ordering: .relaxed) }
        Glibc.signal(SIGTERM) { Interruption.received.store($0, ordering: .relaxed) }
    }

    /// The signal received, if any.
    static var receivedSignal: Int32? {
        let value = received.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    static func check() throws(Failure) {
        if let receivedSignal { throw Failure("interrupted by signal \(receivedSignal)") }
    }
}
