#if canImport(Glibc)
import Glibc
#endif

/// A directory could not be listed or created, or is not one a private file may be put in.
/// Each problem's text says what to type to fix it.
package struct DirectoryError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Problem: Sendable, Hashable {
        /// The system said no.
        case system(Int32)
        /// A symbolic link where the directory should be: remove it.
        case symbolicLink
        /// Others may add, remove or replace files in it (`mode` with 0o020 or 0o002 set).
        case writableByOthers(mode: mode_t)
        /// Owned by `owner`, not by `user` (named `userName`), whom the tunnel runs as.
        case ownedByAnother(owner: uid_t, user: uid_t, userName: String)
    }

    package let path: String
    package let problem: Problem
    /// The data directory when `path` is one of its parents: whoever controls a parent can swap
    /// the data directory for their own.
    let parentOf: String?

    package init(path: String, problem: Problem, parentOf: String? = nil) {
        self.path = path
        self.problem = problem
        self.parentOf = parentOf
    }

    package init(path: String, errno: Int32) {
        self.init(path: path, problem: .system(errno))
    }

    /// The problem as an errno, for callers that report one.
    package var errno: Int32 {
        switch problem {
        case let .system(code): code
        case .symbolicLink: ELOOP
        case .writableByOthers, .ownedByAnother: EPERM
        }
    }

    package var description: String {
        let subject = parentOf.map { "data directory \($0) sits in \(path), which" } ?? "data directory \(path)"
        let remedy = parentOf == nil ? "" : " or choose another --data-dir"
        switch problem {
        case let .system(code): return "\(path): \(SystemError.text(code))"
        case .symbolicLink: return "\(path): \(SystemError.symbolicLinkRefusal)"
        case let .writableByOthers(mode):
            let who = switch (mode & 0o020 != 0, mode & 0o002 != 0) {
            case (true, true): "its group and everyone"
            case (true, false): "its group"
            default: "everyone"
            }
            let fix = parentOf == nil ? "chmod 700 \(path)" : "chmod go-w \(path)"
            return "\(subject) is writable by \(who) (mode \(Self.octal(mode))): \(fix)\(remedy)"
        case let .ownedByAnother(owner, _, userName):
            return "\(subject) is owned by uid \(owner), not \(userName) (the user tunnelvision runs as): "
                + "chown \(userName) \(path) or choose another --data-dir"
        }
    }

    private static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
