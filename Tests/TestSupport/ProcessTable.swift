import Foundation

/// The machine's processes as /proc lists them: what `pgrep -f` answers, asked without pgrep. A
/// missing pgrep, behind a `try?`, read as "no such process" and passed the tests that check a
/// command left nothing behind.
package enum ProcessTable {
    /// The processes other than this one whose command line — its arguments joined by spaces, as
    /// `pgrep -f` matches — matches the regular expression `pattern`. A process that ends while
    /// it is being read, or a kernel thread (no command line), is not listed.
    package static func processes(matching pattern: String) throws -> [pid_t] {
        let expression = try NSRegularExpression(pattern: pattern)
        let own = getpid()
        return try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), pid != own,
                  let raw = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"), !raw.isEmpty else { return nil }
            let line = String(decoding: raw.dropLast(raw.last == 0 ? 1 : 0).map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            let whole = NSRange(line.startIndex..., in: line)
            return expression.firstMatch(in: line, range: whole) == nil ? nil : pid
        }
    }

    /// Whether no process but this one has a command line matching `pattern`.
    package static func noneMatch(_ pattern: String) throws -> Bool { try processes(matching: pattern).isEmpty }
}
