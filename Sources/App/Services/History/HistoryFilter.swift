import Foundation
import Shared

/// What the timeline's list is narrowed to. Each dimension left empty lets everything through.
package struct HistoryFilter: Sendable, Equatable {
    /// The search as typed (`FlowQuery`'s language); read into `search` once, as it is set —
    /// never per flow.
    package var searchText: String { didSet { search = Self.read(searchText) } }
    /// `searchText` read: the query, or the sentence that says which term cannot be read. A
    /// refused search matches nothing, and the reader refuses to load under it
    /// (`HistoryState.failed`), so it is never shown as "no matches".
    private(set) var search: Result<FlowQuery, FlowQueryError>
    /// Empty: every protocol.
    package var protocols: Set<IPProtocolNumber>
    /// Empty: every status.
    package var tlsStatuses: Set<TLSInspectionStatus>
    /// Empty: every flow, whatever its reason; else only flows with one of these reasons.
    package var inspectionReasons: Set<InspectionReasonKind> = []
    /// Empty: every flow; else only flows whose program one of these names (`ProgramFacts.isNamed`).
    package var programs: Set<String> = []
    /// Matched by overlap with [firstSeen, lastSeen], not containment: a connection that began
    /// before the stretch and was still going in it was part of it.
    package var dateRange: ClosedRange<Date>?

    package init(searchText: String = "", protocols: Set<IPProtocolNumber> = [],
                tlsStatuses: Set<TLSInspectionStatus> = [], dateRange: ClosedRange<Date>? = nil) {
        self.searchText = searchText
        search = Self.read(searchText)
        self.protocols = protocols
        self.tlsStatuses = tlsStatuses
        self.dateRange = dateRange
    }

    package static let none = HistoryFilter()

    private static func read(_ text: String) -> Result<FlowQuery, FlowQueryError> {
        Result { () throws(FlowQueryError) in try FlowQuery(text) }
    }

    /// Whether the search holds a term (or a refused one): a blank search is no search.
    var isSearching: Bool {
        switch search {
        case .success(let query): !query.isEmpty
        case .failure: true
        }
    }

    /// Whether anything is narrowed: what tells "no matches" (offer to clear) from "no traffic yet".
    package var isActive: Bool {
        isSearching || !protocols.isEmpty || !tlsStatuses.isEmpty || !inspectionReasons.isEmpty || !programs.isEmpty || dateRange != nil
    }

    package func matches(_ flow: HistoryFlow) -> Bool {
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
        switch search {
        case .success(let query): return query.matches(flow)
        case .failure: return false
        }
    }

    /// The statuses the store narrows by before rows are read (a rare one is found however far
    /// back): those of `--status` and every `status:` term that is not negated, all at once.
    /// Empty: any. `matches` still checks each row, so this only has to include every match.
    var storeStatuses: Set<TLSInspectionStatus> {
        guard case .success(let query) = search, let required = query.requiredStatuses else { return tlsStatuses }
        let narrowed = tlsStatuses.isEmpty ? required : tlsStatuses.intersection(required)
        // None can match; the store has no "none", and `matches` refuses every row it reads.
        return narrowed.isEmpty ? tlsStatuses : narrowed
    }

    /// The programs the store narrows by: `--program`'s, else those of the first `program:`
    /// term that is not negated. Empty: any.
    var storePrograms: Set<String> {
        guard programs.isEmpty, case .success(let query) = search, let required = query.requiredPrograms else { return programs }
        return Set(required)
    }

    /// What the store narrows by before rows are read (`matches` still checks each row): the
    /// statuses, reasons and programs above; the stretch too for a list in another order than
    /// newest first (which stops at the stretch's start by itself, `excludesEverything`) — else
    /// its first page would be the whole history's top rows, filtered one page at a time; and for
    /// a grouping (`order` nil), which reads every row kept, the protocols and the search's name
    /// terms as well.
    func storeNarrowing(order: FlowOrder?) -> FlowNarrowing {
        var narrowing = FlowNarrowing(statuses: storeStatuses, reasons: inspectionReasons, programs: storePrograms,
                                      protocols: order == nil ? protocols : [], during: order == .newestFirst ? nil : dateRange)
        if order == nil, case .success(let query) = search { narrowing.nameNeedles = query.requiredNameNeedles }
        // In every order: `matches` cannot check an `http:` term, the store holds the heads.
        if case .success(let query) = search { narrowing.requestTerms = query.requestTerms }
        return narrowing
    }

    /// Whether no flow last seen before `lastSeen` can match: the list is newest first by last
    /// sighting, so the stretch's start is where the search can stop.
    func excludesEverything(lastSeenBefore lastSeen: Date) -> Bool {
        guard let dateRange else { return false }
        return lastSeen < dateRange.lowerBound
    }
}
