/// Which resolvers the tunnel announced to the monitored namespace, and what the system reported,
/// so that a tunnel that left its namespace without name resolution says so instead of being
/// silent about it (seeds/003 § ResolverStatus).
public struct ResolverStatus: Codable, Sendable, Equatable {
    /// What the namespace was given as its resolvers. Empty means it cannot resolve names.
    public var announced: [String]
    /// What the system reported at start, unfiltered; nil when it could not be asked.
    public var reportedAtStart: [String]?
    /// What the system reports now, read when the stats were asked for; nil when it could not be
    /// asked. Evidence only: with the tunnel up it is expected to repeat `announced`.
    public var reportedNow: [String]?

    /// `announced` has no default: an empty list is a claim (no name resolution), not a blank.
    public init(announced: [String], reportedAtStart: [String]?, reportedNow: [String]? = nil) {
        self.announced = announced
        self.reportedAtStart = reportedAtStart
        self.reportedNow = reportedNow
    }
}
