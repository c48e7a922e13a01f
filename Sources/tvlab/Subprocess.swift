#if canImport(Glibc)
import Glibc
#endif

/// Runs programs with their standard streams on /dev/null (or standard output into a file) and
/// times them, spawn to reap, so output never costs a pipe or a terminal.
enum Subprocess {
    struct Outcome {
        let seconds: Double
        /// The exit status, or nil when a signal ended it.
        let exitStatus: Int32?
        let signal: Int32?
        /// User and system time the program and the children it waited for used; nil when it was
        /// reaped by someone else, which leaves no account.
        let cpuSeconds: Double?

        var succeeded: Bool { exitStatus == 0 }
        var summary: String {
            if let exitStatus { return "exit status \(exitStatus)" }
            return "killed by signal \(signal ?? 0)"
        }

        /// From `wait4`'s status and usage.
        init(seconds: Double, waitStatus status: Int32, usage: rusage) {
            // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
            let signal = status & 0x7F
            self.init(seconds: seconds, exitStatus: signal == 0 ? (status >> 8) & 0xFF : nil,
                      signal: signal == 0 ? nil : signal,
                      cpuSeconds: Self.seconds(usage.ru_utime) + Self.seconds(usage.ru_stime))
        }

        init(seconds: Double, exitStatus: Int32?, signal: Int32?, cpuSeconds: Double? = nil) {
            self.seconds = seconds
            self.exitStatus = exitStatus
            self.signal = signal
            self.cpuSeconds = cpuSeconds
        }

        private static func seconds(_ time: timeval) -> Double {
            Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000
        }
    }

    /// A started program, reaped by `wait()`.
    struct Running {
        let path: String
        let pid: pid_t
        let stopwatch: Stopwatch

        func wait() throws(Failure) -> Outcome {
            var status: Int32 = 0
            var usage = rusage()
            while wait4(pid, &status, 0, &usage) < 0 {
                guard errno == EINTR else { throw Failure("cannot wait for \(path)", errno: errno) }
            }
            return Outcome(seconds: stopwatch.elapsedSeconds, waitStatus: status, usage: usage)
        }
    }

    /// Runs `path` with `arguments` (argv[1...]) and the current environment, to completion.
    static func run(_ path: String, _ arguments: [String]) throws(Failure) -> Outcome {
        try start(path, arguments).wait()
    }

    /// Starts `path`; its standard output goes to `outputPath` when given, else to /dev/null.
    static func start(_ path: String, _ arguments: [String], outputPath: String? = nil) throws(Failure) -> Running {
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        guard null >= 0 else { throw Failure("cannot open /dev/null", errno: errno) }
        defer { close(null) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for target in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            posix_spawn_file_actions_adddup2(&actions, null, target)
        }
        if let outputPath {
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }

        var pid = pid_t()
        let stopwatch = Stopwatch()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure("cannot run \(path)", errno: spawned) }
        return Running(path: path, pid: pid, stopwatch: stopwatch)
    }
}
