import Foundation

/// Why a service that was being started ended instead (pure): its own error line, without the
/// program's prefix, or — when it said nothing — how it ended.
package enum ServiceStartFailure {
    static let errorPrefix = "tunnelvision: "
    static let upPrefix = "tunnelvision: up: "

    /// `said` is everything it printed before it ended; `waitStatus` is waitpid's.
    package static func reason(said: String, waitStatus status: Int32) -> String {
        let lines = said.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let errors = lines.filter { $0.hasPrefix(errorPrefix) }
        let chosen = (errors.isEmpty ? lines : errors).map { line in
            line.hasPrefix(upPrefix) ? String(line.dropFirst(upPrefix.count)) : line
        }
        if !chosen.isEmpty { return chosen.joined(separator: "; ") }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
        let signal = status & 0x7F
        return signal == 0 ? "the service ended with exit status \((status >> 8) & 0xFF) and said nothing"
            : "the service was killed by signal \(signal)"
    }
}
