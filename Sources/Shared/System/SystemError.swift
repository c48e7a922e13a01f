#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision

/// The system's words for an errno, in one place.
package enum SystemError {
    package static func text(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The errno's symbolic name ("ECONNREFUSED"), as counters keyed by errno show it: the same on
    /// every locale and greppable in the kernel's headers. A number the C library does not know
    /// is shown as "errno N".
    package static func name(_ code: Int32) -> String {
        guard let name = ctv_errno_name(code) else { return "errno \(code)" }
        return String(cString: name)
    }

    /// What a planted symbolic link is told: files in the data directory are opened with
    /// `O_NOFOLLOW`, so a link is refused, never followed to wherever it points.
    static let symbolicLinkRefusal = "it is a symbolic link; refusing to follow it (remove it)"

    /// The words for a failed `O_NOFOLLOW` open: its ELOOP means the last component is a
    /// symbolic link, which the system's "Too many levels of symbolic links" hides.
    package static func text(openingWithoutFollowing code: Int32) -> String {
        code == ELOOP ? symbolicLinkRefusal : text(code)
    }
}
