/// Where a domain stands against its project's allowlist — today's allowlist, so an old session is
/// read against the list as it is now.
package enum AllowlistStanding: Sendable, Hashable {
    /// The first entry, in written order, that allows the host.
    case listed(AllowlistEntry)
    case unlisted
    /// The project lists no host at all: nothing is "unlisted" then (an empty list is not deny-all).
    case allowlistEmpty

    package init(of host: String, in project: AuditProject) {
        if project.allowlist.isEmpty {
            self = .allowlistEmpty
        } else if let entry = project.allowlistEntry(matching: host) {
            self = .listed(entry)
        } else {
            self = .unlisted
        }
    }
}
