import Foundation

/// One allowed host of a project, with why it is allowed (the person's words, optional).
package struct AllowlistEntry: Sendable, Hashable {
    package var pattern: DomainPattern
    package var note: String?

    package init(pattern: DomainPattern, note: String? = nil) {
        self.pattern = pattern
        self.note = note
    }
}

/// An audit project (audit.md § Types): the app under assessment, named by the person, with the
/// hosts it is allowed to reach. `bundleIdentifier` is informational only and never filters
/// anything; a nil `catalogueVersion` means the default requirement catalogue.
package struct AuditProject: Sendable, Hashable, Identifiable {
    package let id: Int64
    package var name: String
    package var bundleIdentifier: String?
    package var catalogueVersion: String?
    /// In the order the person wrote it.
    package var allowlist: [AllowlistEntry]
    package let createdAt: Date

    package init(id: Int64, name: String, bundleIdentifier: String? = nil, catalogueVersion: String? = nil,
                allowlist: [AllowlistEntry] = [], createdAt: Date) {
        self.id = id
        self.name = name
        self.bundleIdentifier = bundleIdentifier
        self.catalogueVersion = catalogueVersion
        self.allowlist = allowlist
        self.createdAt = createdAt
    }

    /// The first entry, in written order, that allows `host`; nil when none does.
    package func allowlistEntry(matching host: String) -> AllowlistEntry? {
        allowlist.first { $0.pattern.matches(host) }
    }
}
