import Foundation
import Shared

/// The timeline's question (`tunnelvision flows`, `GET /api/flows`): a page of the history's
/// connections, newest first, under a filter, from a cursor.
package struct TimelineQuestion: Sendable, Equatable {
    /// The data directory as given (`--data-dir`), nil for the default; the footer repeats it.
    package var dataDirectory: String?
    package var filter = HistoryFilter.none
    /// `--sort`: the order of the whole history the page is cut from (`HistorySort`).
    package var order = FlowOrder.newestFirst
    /// `--group`: the groups of the whole filtered history instead of a page of it.
    package var grouping: HistoryGrouping?
    package var limit: Int?
    package var after: FlowCursor?
    /// The zone whose days decide whether the rows' times carry their date (`--zone`,
    /// `StretchClock`); nil for the machine's.
    package var zone: TimeZone?

    static let limitRange = 1...1_000

    package init(dataDirectory: String? = nil, filter: HistoryFilter = .none, order: FlowOrder = .newestFirst, limit: Int? = nil,
                after: FlowCursor? = nil) {
        self.dataDirectory = dataDirectory
        self.filter = filter
        self.order = order
        self.limit = limit
        self.after = after
    }

    /// Reads the options of `flows` (`--json` aside); relative times count back from `now`.
    package static func parse(_ arguments: [String], now: Date) throws(QuestionFailure) -> TimelineQuestion {
        var question = TimelineQuestion()
        var since: Date?, until: Date?
        var cursorOrder: FlowOrder?
        var options = QuestionOptions(command: "flows", arguments: arguments, now: now)
        while let option = options.current {
            switch option {
            case "--data-dir": question.dataDirectory = try options.value(option)
            case "--zone": question.zone = try QuestionOptions.zone(try options.value(option), command: "flows")
            case "--limit":
                let text = try options.value(option)
                guard let limit = Int(text), limitRange.contains(limit) else {
                    throw .usage("flows: --limit needs a number from \(limitRange.lowerBound) to \(limitRange.upperBound)")
                }
                question.limit = limit
            case "--sort":
                let text = try options.value(option)
                guard let order = HistorySort.parse(text) else { throw .usage(HistorySort.refusal(text, command: "flows")) }
                question.order = order
            case "--group":
                let text = try options.value(option)
                guard let grouping = HistoryGrouping(rawValue: text.lowercased()) else {
                    throw .usage(HistoryGrouping.refusal(text, command: "flows"))
                }
                question.grouping = grouping
            case "--after":
                let text = try options.value(option)
                guard let (order, cursor) = HistoryCursorText.parse(text) else {
                    throw .usage("flows: --after '\(text)' is not a cursor: copy the one the footer of the previous page printed")
                }
                question.after = cursor
                cursorOrder = order
            default:
                guard try takeFilterOption(option, from: &options, into: &question.filter, since: &since, until: &until) else {
                    throw .usage("flows: unexpected \(option)")
                }
            }
            options.advance()
        }
        try applyTimes(since: since, until: until, to: &question.filter, command: "flows")
        if question.grouping != nil, question.after != nil || question.order != .newestFirst {
            throw .usage("flows: --group lists every group at once, ranked by bytes: it takes neither --after nor --sort")
        }
        if let cursorOrder, cursorOrder != question.order {
            throw .usage("flows: --after's cursor is a place in the order --sort \(HistorySort.word(cursorOrder)), not "
                + "\(HistorySort.word(question.order)): give that --sort with it, or leave --after out to start from the first")
        }
        return question
    }

    /// One of `flows`' filter options (`--search`, `--protocol`, `--status`, `--reason`,
    /// `--program`, `--since`, `--until`) read into `filter` — the times kept aside until every
    /// option is read — whichever command takes them; false when `option` is none of them.
    static func takeFilterOption(_ option: String, from options: inout QuestionOptions, into filter: inout HistoryFilter,
                                 since: inout Date?, until: inout Date?) throws(QuestionFailure) -> Bool {
        let command = options.command
        switch option {
        case "--search":
            filter.searchText = try options.value(option)
            if case .failure(let refusal) = filter.search {
                throw QuestionFailure(.badParameter, "\(command): --search: \(refusal)",
                                      parameter: .init(name: "search", problem: refusal.description))
            }
        case "--protocol":
            for word in try options.value(option).split(separator: ",") {
                guard let protocols = protocols(named: String(word)) else {
                    throw .usage("\(command): unknown protocol '\(word)': give tcp, udp, icmp, icmpv6 or a number 0-255")
                }
                filter.protocols.formUnion(protocols)
            }
        case "--status":
            filter.tlsStatuses.formUnion(try Self.named(try options.value(option), "status", TLSInspectionStatus.allCases,
                                                        HistoryFlowWording.statusIdentifier, command: command))
        case "--reason":
            filter.inspectionReasons.formUnion(try Self.named(try options.value(option), "reason", InspectionReasonKind.allCases,
                                                              InspectionReasonWording.identifier, command: command))
        case "--program":
            // "curl, firefox" as a person types it in a screen's field: the spaces are not the names'.
            let names = try options.value(option).split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard !names.isEmpty else { throw .usage("\(command): --program needs a program's name, as flows shows it (curl, firefox)") }
            filter.programs.formUnion(names.map(ProgramFacts.folded))
        case "--since": since = try options.instant(option)
        case "--until": until = try options.instant(option)
        default: return false
        }
        return true
    }

    /// `--since` and `--until` as the filter's stretch, refused when the first is after the second.
    static func applyTimes(since: Date?, until: Date?, to filter: inout HistoryFilter, command: String) throws(QuestionFailure) {
        guard since != nil || until != nil else { return }
        let lower = since ?? .distantPast, upper = until ?? .distantFuture
        guard lower <= upper else { throw .usage("\(command): --since is after --until") }
        filter.dateRange = lower...upper
    }

    /// The values `text` names, comma-separated, each by its identifier (any case); an unknown one
    /// is refused with every identifier there is.
    static func named<Value>(_ text: String, _ what: String, _ all: [Value], _ identifier: (Value) -> String,
                             command: String) throws(QuestionFailure) -> [Value] {
        var values: [Value] = []
        for word in text.split(separator: ",") {
            guard let value = all.first(where: { identifier($0).lowercased() == word.lowercased() }) else {
                throw .usage("\(command): unknown \(what) '\(word)': give " + all.map(identifier).joined(separator: ", "))
            }
            values.append(value)
        }
        return values
    }

    /// `icmp` is both ICMPs: a person asking for pings means either family's.
    package static func protocols(named word: String) -> Set<IPProtocolNumber>? {
        switch word.lowercased() {
        case "tcp": [.tcp]
        case "udp": [.udp]
        case "icmp": [.icmp, .icmpv6]
        case "icmpv6": [.icmpv6]
        default: UInt8(word).map { [IPProtocolNumber(rawValue: $0)] }
        }
    }

    /// What `flows` prints, as text or JSON: the groups when `grouping` is set, else the page.
    package func respond(json: Bool, now: Date) async throws(QuestionFailure) -> String {
        if let grouping {
            let groups = try await HistoryAccess.reading(dataDirectory) { store throws(QuestionFailure) in
                do throws(HistoryError) {
                    return try await HistoryReader(store: store).groups(by: grouping, filter: filter, limit: limit ?? HistoryPolicy.default.pageSize)
                } catch {
                    throw QuestionFailure(.failed, error.description)
                }
            }
            let listing = TimelineGroupListing(groups: groups, filter: filter, dataDirectory: dataDirectory)
            return json ? listing.json() : listing.text()
        }
        let listing = try await answer()
        return json ? listing.json(now: now) : listing.text()
    }

    /// The page, read from the history (never created).
    package func answer() async throws(QuestionFailure) -> TimelineListing {
        try await HistoryAccess.reading(dataDirectory) { store throws(QuestionFailure) in try await answer(store: store) }
    }

    private func answer(store: FlowStore) async throws(QuestionFailure) -> TimelineListing {
        if let cursor = after {
            let known: Bool
            do {
                known = try await store.flow(id: cursor.id) != nil
            } catch {
                throw QuestionFailure(.failed, HistoryError(error).description)
            }
            guard known else {
                throw QuestionFailure(.notFound, "the cursor \(HistoryCursorText.text(cursor, order: order)) names connection \(cursor.id), which is "
                    + "not in the history (removed by retention or a clear, or mistyped): run 'tunnelvision flows' "
                    + "without --after to start from the newest")
            }
        }
        var policy = HistoryPolicy.default
        if let limit { policy.pageSize = limit }
        let reader = HistoryReader(store: store, policy: policy)
        await reader.apply(filter, order: order, after: after)
        let snapshot = await reader.snapshot
        if case .failed(let reason) = snapshot.state { throw QuestionFailure(.failed, "\(reason)") }
        return TimelineListing(snapshot: snapshot, query: TimelineListing.Query(
            dataDirectory: dataDirectory, filter: filter, order: order, limit: limit, after: after), pageSize: policy.pageSize, zone: zone ?? .current)
    }
}
