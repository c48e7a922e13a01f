/// Which program made a connection, as the kernel said when the connection opened — or why no
/// program can be named. Nothing is guessed: a socket gone before it was asked about says so.
package enum ProgramAttribution: Sendable, Equatable, Hashable, Codable {
    case program(ProgramFacts)
    /// No socket had this connection's 5-tuple when asked (closed already), or none that a
    /// process still held (its owner closed it; TIME_WAIT).
    case socketGone
    /// The connection is not one of the target's own sockets (forwarded or bridged traffic seen
    /// passively).
    case notLocal
    /// The kernel could not be asked; the reason says why.
    case unavailable(String)
}

/// A process as the monitoring service's namespace sees it, and the socket's owner.
package struct ProgramFacts: Sendable, Equatable, Hashable, Codable {
    package let pid: Int32
    /// /proc/PID/comm: the kernel's short name (at most 15 bytes).
    package let command: String
    /// /proc/PID/exe, resolved; nil when the kernel would not say (a kernel thread, no rights).
    package let executable: String?
    /// The socket's owner.
    package let uid: UInt32
    /// The owner's name in the user database; nil when it has none.
    package let user: String?

    package init(pid: Int32, command: String, executable: String?, uid: UInt32, user: String?) {
        self.pid = pid
        self.command = command
        self.executable = executable
        self.uid = uid
        self.user = user
    }
}

extension ProgramFacts {
    /// The executable's file name ("/usr/bin/curl" → "curl"); nil without an executable.
    var executableFileName: String? {
        executable.map { path in String(path[(path.lastIndex(of: "/").map(path.index(after:)) ?? path.startIndex)...]) }
    }

    /// Whether a person asking for `name` (`flows --program`) means this program: it is the
    /// command or the executable's file name — the command alone is cut to 15 bytes by the
    /// kernel — with A–Z in any case, as the history's SQL folds them (`lower`).
    package func isNamed(_ name: String) -> Bool {
        let wanted = Self.folded(name)
        return Self.folded(command) == wanted || executableFileName.map(Self.folded) == wanted
    }

    /// `name` with A–Z lowered and every other character kept: SQLite's `lower()` without ICU.
    package static func folded(_ name: String) -> String {
        String(decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}

/// `ProgramAttribution`'s case by name, as the history and `--json` spell it.
package enum ProgramAttributionState: String, Sendable, CaseIterable {
    case program, socketGone, notLocal, unavailable

    package init(_ attribution: ProgramAttribution) {
        switch attribution {
        case .program: self = .program
        case .socketGone: self = .socketGone
        case .notLocal: self = .notLocal
        case .unavailable: self = .unavailable
        }
    }
}
