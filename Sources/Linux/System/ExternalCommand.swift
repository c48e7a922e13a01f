#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision
import Foundation

/// Runs another program to completion and collects what it said: how the shell drives iproute2
/// (DESIGN.md allows `ip` in place of raw netlink). Standard input is /dev/null.
package enum ExternalCommand {
    /// Where system programs live, searched after `$PATH` (root's `ip` is in /usr/sbin, which a
    /// sudo'd environment may not list).
    static let systemDirectories = ["/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]

    /// Started with posix_spawn, not Foundation's Process: Process waits through a CFSocket
    /// whose wakeup needs a loopback socket, so in a namespace whose `lo` is down (a fresh
    /// `ip netns add`) it never learns that the program ended. The program gets an empty signal
    /// mask and default dispositions, whatever ours are.
    @discardableResult
    package static func run(_ arguments: [String]) throws(CommandError) -> CommandOutput {
        guard let program = arguments.first else { throw .notFound("") }
        guard let path = locate(program) else { throw .notFound(program) }
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        guard ctv_pipe_cloexec(&output) == 0 else { throw .launchFailed(program, String(cString: strerror(errno))) }
        guard ctv_pipe_cloexec(&errors) == 0 else {
            let reason = String(cString: strerror(errno))
            close(output[0]); close(output[1])
            throw .launchFailed(program, reason)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        // Nothing else of ours reaches the program: a descriptor another thread opened without
        // close-on-exec (a file being written, a socket) would live on in it — a binary still
        // open for writing in a child cannot be executed (ETXTBSY).
        ctv_spawn_actions_close_from(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        close(output[1])
        close(errors[1])
        defer { close(output[0]); close(errors[0]) }
        guard spawned == 0 else { throw .launchFailed(program, String(cString: strerror(spawned))) }
        // Drain both pipes while the child runs, so neither fills and blocks it.
        let (standardOutput, standardError) = drain(output[0], errors[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let result = CommandOutput(status: (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f),
                                   standardOutput: String(decoding: standardOutput, as: UTF8.self),
                                   standardError: String(decoding: standardError, as: UTF8.self))
        guard result.status == 0 else {
            throw .failed(command: arguments.joined(separator: " "), status: result.status,
                          standardError: result.standardError.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return result
    }

    /// Reads both descriptors to their ends.
    private static func drain(_ first: Int32, _ second: Int32) -> ([UInt8], [UInt8]) {
        var collected: [[UInt8]] = [[], []]
        var watched = [pollfd(fd: first, events: Int16(POLLIN), revents: 0), pollfd(fd: second, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while watched.contains(where: { $0.fd >= 0 }) {
            if poll(&watched, nfds_t(watched.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            for index in watched.indices where watched[index].fd >= 0 && watched[index].revents != 0 {
                let got = read(watched[index].fd, &buffer, buffer.count)
                if got > 0 {
                    collected[index] += buffer[0..<got]
                } else if got == 0 || errno != EINTR {
                    watched[index].fd = -1   // poll skips negative descriptors
                }
            }
        }
        return (collected[0], collected[1])
    }

    /// The program's path: as given when it contains a slash, else found on `$PATH` or in the
    /// system directories.
    package static func locate(_ program: String) -> String? {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
        let path = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map(String.init) ?? []
        return (path + systemDirectories)
            .map { "\($0)/\(program)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

package struct CommandOutput: Sendable, Equatable {
    package let status: Int32
    package let standardOutput: String
    package let standardError: String
}

/// A program that could not be run or said no.
package enum CommandError: Error, Sendable, Equatable, CustomStringConvertible {
    case notFound(String)
    case launchFailed(String, String)
    case failed(command: String, status: Int32, standardError: String)

    package var description: String {
        switch self {
        case .notFound(let program): "\(program) is not installed (not on PATH or in /usr/sbin)"
        case .launchFailed(let program, let reason): "cannot run \(program): \(reason)"
        case .failed(let command, let status, let standardError):
            "\(command) failed (exit status \(status))" + (standardError.isEmpty ? "" : ": \(standardError)")
        }
    }
}
