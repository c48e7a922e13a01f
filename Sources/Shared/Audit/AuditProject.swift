import Foundation

/// One allowed host of a project, with why it is allowed (the person's words, optional).
public struct AllowlistEntry: Sendable, Hashable {
    public var pattern: DomainPattern
    public var note: String?

    public init(pattern: DomainPattern, note: String? = nil) {
        self.pattern = pattern
        self.note = note
    }
}

/// An audit project (audit.md § Types): the app under assessment, named by the person, with the
/// hosts it is allowed to reach. `bundleIdentifier` is informational only and never filters
/// anything; a nil `catalogueVersion` means the default requirement catalogue.
public struct AuditProject: Sendable, Hashable, Identifiable {
    public let id: Int64
    public var name: String
    public var bundleIdentifier: String?
    public var catalogueVersion: String?
    /// In the order the person wrote it.
    public var allowlist: [AllowlistEntry]
    public let createdAt: Date

    public init(id: Int64, name: String, bundleIdentifier: String? = nil, catalogueVersion: String? = nil,
                allowlist: [AllowlistEntry] = [], createdAt: Date) {
        self.id = id
        self.name = name
        self.bundleIdentifier = bundleIdentifier
        self.catalogueVersion = catalogueVersion
        self.allowlist = allowlist
        self.createdAt = createdAt
    }

    /// The first entry, in written order, that allows `host`; nil when none does.
    public func allowlistEntry(matching host: String) -> AllowlistEntry? {
        allowlist.first { $0.pattern.matches(host) }
    }
}
