/// Why the host check could not assess a named flow (audit.md § Host).
package enum HostGap: CoverageGap {
    /// The project allows no host yet: an empty allowlist denies nothing.
    case allowlistEmpty
    /// The name came from DNS, and among the names sharing the address some are allowed and some
    /// not; `attributedNameAllowed` says on which side the name the flow was given stands.
    case candidatesDisagree(attributedNameAllowed: Bool)

    package var identifier: String {
        switch self {
        case .allowlistEmpty: "allowlistEmpty"
        case .candidatesDisagree: "candidatesDisagree"
        }
    }

    package var statement: String {
        switch self {
        case .allowlistEmpty:
            "The project's allowlist is empty, so no host could be compared with it."
        case .candidatesDisagree(attributedNameAllowed: true):
            "The name came from DNS and is allowed, but other names of the same address are not, "
                + "so which one the connection went to is not known."
        case .candidatesDisagree(attributedNameAllowed: false):
            "The name came from DNS and is not allowed, but other names of the same address are, "
                + "so which one the connection went to is not known."
        }
    }
}
