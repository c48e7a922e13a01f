import Foundation
import Shared

/// What `tunnelvision flows` shows of one load of the timeline: the connections, newest first,
/// and a footer that says what was scanned, whether more remain and the exact command for the
/// next page — or, when a filter spent its queries finding fewer than a page, that it kept looking.
package struct TimelineListing: Sendable {
    /// What the person asked for, so the next page's command repeats it exactly.
    package struct Query: Sendable, Equatable {
        package var dataDirectory: String?
        package var filter: HistoryFilter
        package var order: FlowOrder
        package var limit: Int?
        /// Where this page started (`--after`); nil from the newest connection.
        package var after: FlowCursor?

        package init(dataDirectory: String? = nil, filter: HistoryFilter = .none, order: FlowOrder = .newestFirst, limit: Int? = nil,
                    after: FlowCursor? = nil) {
            self.dataDirectory = dataDirectory
            self.filter = filter
            self.order = order
            self.limit = limit
            self.after = after
        }
    }

    package let snapshot: HistorySnapshot
    package let query: Query
    package let pageSize: Int
    /// Whose days the rows' clock counts (`clock(now:)`).
    package let zone: TimeZone

    package init(snapshot: HistorySnapshot, query: Query, pageSize: Int, zone: TimeZone = .current) {
        self.snapshot = snapshot
        self.query = query
        self.pageSize = pageSize
        self.zone = zone
    }

    /// How the rows write the time they are sorted by (their last sighting): with the date when
    /// this page's stretch crosses a day or is not today (`StretchClock`).
    package func clock(now: Date) -> StretchClock {
        StretchClock.of(snapshot.flows.lazy.map(\.stored.lastSeen), now: now, zone: zone)
    }

    package var keptLooking: Bool { snapshot.keptLooking(pageSize: pageSize) }

    /// The command that shows the next page; nil when nothing older remains. Times are written as
    /// the absolute instants they stood for, so the next page is of the same stretch.
    var nextPageCommand: String? {
        guard snapshot.hasMore, let cursor = snapshot.nextCursor else { return nil }
        var words = ["tunnelvision", "flows"]
        if let directory = query.dataDirectory { words += ["--data-dir", Self.quoted(directory)] }
        words += Self.filterWords(query.filter)
        if query.order != .newestFirst { words += ["--sort", HistorySort.word(query.order)] }
        if let limit = query.limit { words += ["--limit", "\(limit)"] }
        words += ["--after", HistoryCursorText.text(cursor, order: query.order)]
        return words.joined(separator: " ")
    }

    /// The table and its footer. A burst (`TimelineBurst`) is one row whose id column holds the
    /// ids it spans, explained under the table with the command that opens one of them.
    package func text() -> String {
        var lines: [String] = []
        if query.order != .newestFirst, !snapshot.flows.isEmpty { lines += ["sorted by \(HistorySort.sentence(query.order))", ""] }
        if !snapshot.flows.isEmpty {
            var rows = [["ID", "LAST ACTIVE (UTC)", "PROGRAM", "HOST (NAME FROM)", "PORT", "PROTO", "RECEIVED", "SENT", "PACKETS",
                         "DURATION", "ENCRYPTION"]]
            var bursts: [TimelineBurst] = []
            for piece in query.order.key == .time ? TimelineBurst.pieces(of: snapshot.flows) : snapshot.flows.map(TimelineBurst.Piece.flow) {
                switch piece {
                case let .flow(flow):
                    rows.append(["\(flow.id)", HistoryFlowWording.time(flow.stored.lastSeen), ProgramWording.cell(flow.stored.program),
                                 HistoryFlowWording.host(flow),
                                 flow.remotePort.map { "\($0)" } ?? "-", flow.stored.key.proto.displayName,
                                 ByteCountText.binary(flow.stored.bytesIn), ByteCountText.binary(flow.stored.bytesOut),
                                 "\(flow.stored.packetCount)", HistoryFlowWording.duration(flow.stored.duration),
                                 HistoryFlowWording.encryption(flow.stored.tlsStatus, reason: flow.stored.inspectionReason)])
                case let .burst(burst):
                    bursts.append(burst)
                    rows.append([burst.idRanges, HistoryFlowWording.time(burst.lastSeen), ProgramWording.cell(burst.flows.map(\.stored.program)),
                                 "\(burst.count) × \(HistoryFlowWording.host(burst.first))",
                                 burst.first.remotePort.map { "\($0)" } ?? "-", burst.first.stored.key.proto.displayName,
                                 ByteCountText.binary(burst.bytesIn), ByteCountText.binary(burst.bytesOut), "\(burst.packets)",
                                 HistoryFlowWording.duration(burst.lastSeen.timeIntervalSince(burst.firstSeen)),
                                 HistoryFlowWording.encryption(burst.first.stored.tlsStatus, reason: burst.first.stored.inspectionReason)])
                }
            }
            lines += RunSummary.aligned(rows)
            lines.append("")
            for burst in bursts {
                lines.append("\(burst.idRanges): a burst of \(burst.sentence); open one with: \(flowCommand(burst.first.id))")
            }
            if !bursts.isEmpty { lines.append("") }
        }
        lines.append(footer)
        return lines.joined(separator: "\n")
    }

    /// The page's bursts — in time order only: in another order, alike connections started
    /// together are not neighbours, and a burst row would stand where its first one sorts.
    var bursts: [TimelineBurst] { query.order.key == .time ? TimelineBurst.bursts(of: snapshot.flows) : [] }

    /// The command that opens connection `id` of this listing's history.
    func flowCommand(_ id: Int64) -> String {
        var words = ["tunnelvision", "flow", "\(id)"]
        if let directory = query.dataDirectory { words += ["--data-dir", Self.quoted(directory)] }
        return words.joined(separator: " ")
    }

    /// The last line: what this page is, honestly.
    package var footer: String {
        let scanned = snapshot.scannedInLastLoad
        let shown = snapshot.flowsInLastLoad
        if snapshot.isEmpty && !snapshot.filter.isActive && !snapshot.hasMore {
            return query.after == nil
                ? "no connections recorded yet: 'sudo tunnelvision run -- CMD' records every connection CMD makes"
                : "no connections older than that page: the list ends there"
        }
        if let next = nextPageCommand {
            if keptLooking {
                return "kept looking: scanned \(Self.connections(scanned)), found \(shown); more may match further back — run: \(next)"
            }
            return "\(Self.connections(shown)) shown (scanned \(scanned)); more remain — next page: \(next)"
        }
        if snapshot.filter.isActive && shown == 0 {
            // The status and reason are narrowed by the store: nothing read can mean none at all.
            let looked = scanned > 0 ? "scanned \(scanned), none older remain" : "none in the history"
            return "no connections match (\(looked)); run 'tunnelvision flows' without "
                + "--search, --protocol, --status, --reason, --program, --since and --until to see them all"
        }
        return "\(Self.connections(shown)) shown (scanned \(scanned)); nothing older remains"
    }

    /// One JSON document: the flows, the bursts among them (each with the ids it spans, in the
    /// flows' order; every flow is still listed in `flows`), what was scanned, whether more remain,
    /// the next cursor, the filter as applied, and `clock` — `time` or `date`, how a screen writes
    /// the rows' last sightings as of `now` (`clock(now:)`).
    package func json(now: Date) -> String {
        var out = JSONWriter()
        out.beginObject()
        out.string("clock", clock(now: now).rawValue)
        out.beginArray("flows")
        for flow in snapshot.flows {
            HistoryFlowWording.write(flow, after: flow.position.map { HistoryCursorText.text($0, order: query.order) }, to: &out)
        }
        out.endArray()
        out.beginArray("bursts")
        for burst in bursts { burst.write(to: &out) }
        out.endArray()
        out.number("scanned", snapshot.scannedInLastLoad)
        out.bool("hasMore", snapshot.hasMore)
        out.string("next", snapshot.hasMore ? snapshot.nextCursor.map { HistoryCursorText.text($0, order: query.order) } : nil)
        writeSort(to: &out)
        out.bool("keptLooking", keptLooking)
        out.bool("historyEmpty", snapshot.isEmpty && !snapshot.filter.isActive && query.after == nil)
        out.number("liveRowsKept", HistoryPolicy.liveRowsKept)
        Self.writeFilter(snapshot.filter, to: &out)
        writeChoices(to: &out)
        out.endObject()
        return out.writer.string
    }

    /// `"filter"`: the filter as applied — "search", "protocols", "statuses", "reasons",
    /// "programs", "since", "until".
    static func writeFilter(_ filter: HistoryFilter, to out: inout JSONWriter) {
        out.beginObject("filter")
        out.string("search", filter.isSearching ? filter.searchText : nil)
        out.strings("protocols", filter.protocols.sorted { $0.rawValue < $1.rawValue }.map(HistoryFlowWording.protocolIdentifier))
        out.strings("statuses", filter.tlsStatuses.sorted { $0.rawValue < $1.rawValue }.map(HistoryFlowWording.statusIdentifier))
        out.strings("reasons", InspectionReasonKind.allCases.filter(filter.inspectionReasons.contains)
            .map(InspectionReasonWording.identifier))
        out.strings("programs", filter.programs.sorted())
        HistoryFlowWording.write("since", filter.dateRange.map(\.lowerBound).flatMap { $0 > .distantPast ? $0 : nil }, to: &out)
        HistoryFlowWording.write("until", filter.dateRange.map(\.upperBound).flatMap { $0 < .distantFuture ? $0 : nil }, to: &out)
        out.endObject()
    }

    /// `"sort": {"key", "descending", "word" (what --sort and sort= take), "sentence"}`: the order
    /// of the whole history this page is cut from.
    func writeSort(to out: inout JSONWriter) {
        out.beginObject("sort")
        out.string("key", query.order.key.rawValue)
        out.bool("descending", query.order.descending)
        out.string("word", HistorySort.word(query.order))
        out.string("sentence", HistorySort.sentence(query.order))
        out.endObject()
    }

    /// What a screen offers to narrow by and how it names each: `"choices": {"statuses": [{"id",
    /// "label", "written"}], "reasons": [{"id", "label"}], "sorts": [{"word", "sentence"}]}`, in
    /// their order — `written` is whether a row writes that status out
    /// (`HistoryFlowWording.statusIsWritten`); `sorts` every order, each key its natural way first.
    func writeChoices(to out: inout JSONWriter) {
        out.beginObject("choices")
        out.beginArray("statuses")
        for status in TLSInspectionStatus.allCases {
            out.beginObject()
            out.string("id", HistoryFlowWording.statusIdentifier(status))
            out.string("label", HistoryFlowWording.statusLabel(status))
            out.bool("written", HistoryFlowWording.statusIsWritten(status))
            out.endObject()
        }
        out.endArray()
        out.beginArray("reasons")
        for kind in InspectionReasonKind.allCases {
            out.beginObject()
            out.string("id", InspectionReasonWording.identifier(kind))
            out.string("label", InspectionReasonWording.label(kind))
            out.endObject()
        }
        out.endArray()
        out.beginArray("sorts")
        for key in FlowOrder.Key.allCases {
            let natural = HistorySort.natural(key)
            for order in [natural, FlowOrder(key, descending: !natural.descending)] {
                out.beginObject()
                out.string("word", HistorySort.word(order))
                out.string("sentence", HistorySort.sentence(order))
                out.endObject()
            }
        }
        out.endArray()
        out.endObject()
    }

    static func connections(_ count: Int) -> String { count == 1 ? "1 connection" : "\(count) connections" }

    /// `2026-12-01T15:00:00.250000Z`, which the time parser reads back.
    static func instant(_ date: Date) -> String { HistoryFlowWording.utc(date) }

    /// The options of `flows` (and `export`) that ask for `filter`, as a person would type them;
    /// times as the absolute instants they stood for.
    static func filterWords(_ filter: HistoryFilter) -> [String] {
        var words: [String] = []
        if filter.isSearching { words += ["--search", quoted(filter.searchText)] }
        if !filter.protocols.isEmpty {
            words += ["--protocol", filter.protocols.sorted { $0.rawValue < $1.rawValue }
                .map(HistoryFlowWording.protocolIdentifier).joined(separator: ",")]
        }
        if !filter.tlsStatuses.isEmpty {
            words += ["--status", filter.tlsStatuses.sorted { $0.rawValue < $1.rawValue }
                .map(HistoryFlowWording.statusIdentifier).joined(separator: ",")]
        }
        if !filter.inspectionReasons.isEmpty {
            words += ["--reason", InspectionReasonKind.allCases.filter(filter.inspectionReasons.contains)
                .map(InspectionReasonWording.identifier).joined(separator: ",")]
        }
        if !filter.programs.isEmpty { words += ["--program", quoted(filter.programs.sorted().joined(separator: ","))] }
        if let range = filter.dateRange {
            if range.lowerBound > .distantPast { words += ["--since", instant(range.lowerBound)] }
            if range.upperBound < .distantFuture { words += ["--until", instant(range.upperBound)] }
        }
        return words
    }

    /// `word` as a shell reads it back: bare when safe, else in single quotes.
    package static func quoted(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@,+%")
        if !word.isEmpty, word.allSatisfy(safe.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
