#if canImport(Glibc)
import Glibc
#endif

/// The process's limit on open descriptors. A tunnel holds a socket per relayed flow, and the
/// usual soft limit of 1 024 would refuse flows long before the flow table's cap; the hard limit
/// is what an administrator allows, so the tunnel raises its soft limit to it.
package struct OpenFileLimit: Sendable, Equatable {
    package let soft: UInt64
    package let hard: UInt64

    package init(soft: UInt64, hard: UInt64) {
        self.soft = soft
        self.hard = hard
    }

    package static var current: OpenFileLimit? {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 else { return nil }
        return OpenFileLimit(soft: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max))
    }

    /// Raises the soft limit to the hard one; returns the limit as it was, for the programs we
    /// start (a program written for `select()` expects the usual soft limit), or nil when nothing
    /// changed.
    @discardableResult
    static func raiseToHardLimit() -> OpenFileLimit? {
        guard let before = current, before.soft < before.hard else { return nil }
        var limit = rlimit(rlim_cur: rlim_t(before.hard), rlim_max: rlim_t(before.hard))
        return setrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 ? before : nil
    }

    /// `prlimit`'s argument that puts this limit back for a child.
    var prlimitArgument: String { "--nofile=\(soft):\(hard)" }

    /// Glibc's RLIMIT_NOFILE imports as an enum case; the calls take its raw value.
    private static let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
}
