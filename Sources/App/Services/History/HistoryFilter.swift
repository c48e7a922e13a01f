import Foundation
import Shared

/// What the timeline's list is narrowed to. Each dimension left empty lets everything through.
public struct HistoryFilter: Sendable, Equatable {
    /// Matched, case-insensitively and as a substring, against `HistoryFlow.searchableNames`.
    public var searchText: String
    /// Empty: every protocol.
    public var protocols: Set<IPProtocolNumber>
    /// Empty: every status.
    public var tlsStatuses: Set<TLSInspectionStatus>
    /// Empty: every flow, whatever its reason; else only flows with one of these reasons.
    public var inspectionReasons: Set<InspectionReasonKind> = []
    /// Empty: every flow; else only flows whose program one of these names (`ProgramFacts.isNamed`).
    public var programs: Set<String> = []
    /// Matched by overlap with [firstSeen, lastSeen], not containment: a connection that began
    /// before the stretch and was still going in it was part of it.
    public var dateRange: ClosedRange<Date>?

    public init(searchText: String = "", protocols: Set<IPProtocolNumber> = [],
                tlsStatuses: Set<TLSInspectionStatus> = [], dateRange: ClosedRange<Date>? = nil) {
        self.searchText = searchText
        self.protocols = protocols
        self.tlsStatuses = tlsStatuses
        self.dateRange = dateRange
    }

    public static let none = HistoryFilter()

    /// The search as it is matched: trimmed and lowercased (`searchableNames` are lowercase).
    var needle: String { searchText.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() }

    /// Whether anything is narrowed: what tells "no matches" (offer to clear) from "no traffic yet".
    public var isActive: Bool {
        !needle.isEmpty || !protocols.isEmpty || !tlsStatuses.isEmpty || !inspectionReasons.isEmpty || !programs.isEmpty || dateRange != nil
    }

    public func matches(_ flow: HistoryFlow) -> Bool {
        if !protocols.isEmpty, !protocols.contains(flow.stored.key.proto) { return false }
        if !tlsStatuses.isEmpty, !tlsStatuses.contains(flow.stored.tlsStatus) { return false }
        if !inspectionReasons.isEmpty, !(flow.stored.inspectionReason.map { inspectionReasons.contains($0.kind) } ?? false) {
            return false
        }
        if !programs.isEmpty {
            guard case .program(let facts)? = flow.stored.program, programs.contains(where: facts.isNamed) else { return false }
        }
        if let dateRange, !(flow.stored.firstSeen <= dateRange.upperBound && flow.stored.lastSeen >= dateRange.lowerBound) {
            return false
        }
        let needle = needle
        return needle.isEmpty || flow.searchableNames.contains { $0.contains(needle) }
    }

    /// Whether no flow last seen before `lastSeen` can match: the list is newest first by last
    /// sighting, so the stretch's start is where the search can stop.
    func excludesEverything(lastSeenBefore lastSeen: Date) -> Bool {
        guard let dateRange else { return false }
        return lastSeen < dateRange.lowerBound
    }
}
