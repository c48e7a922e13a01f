/// How a domain's weakest TLS version moved from the earlier release to the later one.
package enum TLSFloorShift: String, Sendable, Hashable, CaseIterable {
    /// The later release agreed a weaker version than any the earlier one did.
    case lowered
    /// The later release's weakest version is stronger than the earlier one's.
    case raised
    /// Same weakest version; the sets differ above it.
    case held
    /// A version on either side is not a published one, so "weaker" has no meaning
    /// (`TLSProtocolVersion` orders only published versions).
    case notOrdered

    /// The shift from `earlier` to `later`, both non-empty.
    package init(earlier: [TLSProtocolVersion], later: [TLSProtocolVersion]) {
        guard (earlier + later).allSatisfy(\.isPublished),
              let before = earlier.map(\.rawValue).min(), let after = later.map(\.rawValue).min() else {
            self = .notOrdered
            return
        }
        self = after < before ? .lowered : after > before ? .raised : .held
    }
}

/// Why one negotiator's versions of a domain could not be compared.
package enum TLSComparisonGap: String, Sendable, Hashable, CaseIterable {
    case notReadInEarlierSession
    case notReadInLaterSession
    case notReadInEitherSession
}

/// One negotiator's TLS versions of a domain in two sessions, compared as sets (ascending wire
/// value). No threshold: whether a version is weak is the findings' question, not the diff's.
package enum TLSVersionComparison: Sendable, Hashable {
    case same([TLSProtocolVersion])
    case different(earlier: [TLSProtocolVersion], later: [TLSProtocolVersion], floor: TLSFloorShift)
    case notCompared(TLSComparisonGap)

    /// `earlier` and `later` are sets in ascending wire value (`DomainObservation.versions(negotiatedBy:)`).
    package init(earlier: [TLSProtocolVersion], later: [TLSProtocolVersion]) {
        switch (earlier.isEmpty, later.isEmpty) {
        case (true, true): self = .notCompared(.notReadInEitherSession)
        case (true, false): self = .notCompared(.notReadInEarlierSession)
        case (false, true): self = .notCompared(.notReadInLaterSession)
        case (false, false):
            self = earlier == later ? .same(earlier) : .different(earlier: earlier, later: later,
                                                                  floor: TLSFloorShift(earlier: earlier, later: later))
        }
    }

    /// The versions were read on both sides and are not the same set.
    var isChange: Bool {
        if case .different = self { return true }
        return false
    }
}
