/// Which resolvers the tunnel announced to the monitored namespace, and what the system reported,
/// so that a tunnel that left its namespace without name resolution says so instead of being
/// silent about it (seeds/003 § ResolverStatus).
package struct ResolverStatus: Codable, Sendable, Equatable {
    /// What the namespace was given as its resolvers. Empty means it cannot resolve names.
    package var announced: [String]
    /// What the system reported at start, unfiltered; nil when it could not be asked.
    package var reportedAtStart: [String]?
    /// What the system reports now, read when the stats were asked for; nil when it could not be
    /// asked. Evidence only: with the tunnel up it is expected to repeat `announced`.
    package var reportedNow: [String]?
    /// Changes to the system's resolver configuration noticed while the tunnel ran (its
    /// resolv.conf written or replaced): the seed's network changes.
    package var networkChanges: UInt64
    /// Those after which different resolvers were learnt and announced. A change that taught
    /// nothing new (the same servers, or none usable) is counted above only.
    package var networkChangesLearned: UInt64

    /// `announced` has no default: an empty list is a claim (no name resolution), not a blank.
    package init(announced: [String], reportedAtStart: [String]?, reportedNow: [String]? = nil,
                networkChanges: UInt64 = 0, networkChangesLearned: UInt64 = 0) {
        self.announced = announced
        self.reportedAtStart = reportedAtStart
        self.reportedNow = reportedNow
        self.networkChanges = networkChanges
        self.networkChangesLearned = networkChangesLearned
    }

    enum CodingKeys: String, CodingKey {
        case announced, reportedAtStart, reportedNow, networkChanges, networkChangesLearned
    }

    /// The counters are absent from a tunnel that predates them: none noticed, never "unknown".
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        announced = try container.decode([String].self, forKey: .announced)
        reportedAtStart = try container.decodeIfPresent([String].self, forKey: .reportedAtStart)
        reportedNow = try container.decodeIfPresent([String].self, forKey: .reportedNow)
        networkChanges = try container.decodeIfPresent(UInt64.self, forKey: .networkChanges) ?? 0
        networkChangesLearned = try container.decodeIfPresent(UInt64.self, forKey: .networkChangesLearned) ?? 0
    }
}

extension ResolverStatus {
    /// Notes that the system's resolver configuration changed and now reports `reported` (nil: it
    /// could not be read). The change is counted; when it gives announceable servers other than
    /// those announced, they become the announced ones, the change counts as learnt, and they are
    /// returned for the caller to hand to the namespace. Nil: keep announcing what was — a
    /// configuration that lists nothing usable (between two networks) never takes the old
    /// servers away.
    package mutating func noteNetworkChange(reported: [IPAddress]?) -> [IPAddress]? {
        networkChanges &+= 1
        reportedNow = reported?.map(\.description)
        let usable = TunnelResolvers.announceable(from: reported ?? [])
        guard !usable.isEmpty, usable.map(\.description) != announced else { return nil }
        announced = usable.map(\.description)
        networkChangesLearned &+= 1
        return usable
    }
}
