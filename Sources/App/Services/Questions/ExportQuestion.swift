import Foundation
import Shared

/// The export's question (`tunnelvision export`, `POST /api/export`, `GET /api/export/summary`):
/// the whole history as one JSON document — to a file, or streamed — and what was written; or,
/// with `--summary`, what it would hold, said without writing it.
package struct ExportQuestion: Sendable, Equatable {
    package enum Output: Sendable, Equatable {
        /// DATA/exports/connections.json.
        case dataDirectory
        case file(String)
        /// Handed to the caller piece by piece (standard output, a download).
        case stream
    }

    package var dataDirectory: String?
    package var output: Output = .dataDirectory
    package var force = false
    /// `--summary`: say what the export would hold, write nothing.
    package var summaryOnly = false
    /// `--csv`, `--har`; JSON without either.
    package var format: FlowExportFormat = .json
    /// The same filters as `flows`: only the connections they keep are exported.
    package var filter = HistoryFilter.none
    /// `--sort`, as `flows` takes it: the order written, and which connections the cap keeps.
    package var order = FlowOrder.newestFirst

    static let exportsFolderName = "exports"

    package init(dataDirectory: String? = nil, output: Output = .dataDirectory, force: Bool = false, summaryOnly: Bool = false) {
        self.dataDirectory = dataDirectory
        self.output = output
        self.force = force
        self.summaryOnly = summaryOnly
    }

    /// Reads the arguments of `export`; `json` says whether `--json` was given; relative times
    /// of the filters count back from `now`.
    package static func parse(_ arguments: [String], json: Bool, now: Date = Date()) throws(QuestionFailure) -> ExportQuestion {
        var question = ExportQuestion()
        var options = QuestionOptions(command: "export", arguments: arguments, now: now)
        var since: Date?, until: Date?
        var outputNamed = false
        while let option = options.current {
            switch option {
            case "--data-dir": question.dataDirectory = try options.value(option)
            case "-o":
                outputNamed = true
                guard options.index + 1 < arguments.count else { throw .usage("export: -o needs a file (or - for standard output)") }
                let output = try options.value(option)
                question.output = output == "-" ? .stream : .file(output)
            case "--force": question.force = true
            case "--sort":
                let text = try options.value(option)
                guard let order = HistorySort.parse(text) else { throw .usage(HistorySort.refusal(text, command: "export")) }
                question.order = order
            case "--summary": question.summaryOnly = true
            case "--csv", "--har":
                let format: FlowExportFormat = option == "--csv" ? .csv : .har
                guard question.format == .json || question.format == format else { throw .usage("export: --csv and --har: give one") }
                question.format = format
            default:
                guard try TimelineQuestion.takeFilterOption(option, from: &options, into: &question.filter, since: &since, until: &until)
                else { throw .usage(option.hasPrefix("-") ? "export: unknown option \(option)" : "export: unexpected \(option)") }
            }
            options.advance()
        }
        try TimelineQuestion.applyTimes(since: since, until: until, to: &question.filter, command: "export")
        if question.summaryOnly && (outputNamed || question.force) {
            throw .usage("export: --summary writes nothing, so -o and --force do not go with it")
        }
        if question.summaryOnly && (question.format != .json || question.filter.isActive || question.order != .newestFirst) {
            throw .usage("export: --summary says what the whole JSON export would hold; it takes no --csv, --har, --sort or filter")
        }
        if json && question.output == .stream {
            throw .usage("export: --json describes the file written; with -o - the document itself is the output")
        }
        return question
    }

    /// What the JSON document says it holds: the whole history, or what the filters keep, in its order.
    var scope: String {
        guard filter.isActive || order != .newestFirst else { return FlowExport.scope }
        let which = filter.isActive ? "the connections " + TimelineListing.filterWords(filter).joined(separator: " ") + " keeps"
            : "the whole history"
        return which + (order == .newestFirst ? ", most recent first" : ", sorted by \(HistorySort.sentence(order))")
    }

    /// The document written to its file (`output` is not `.stream`).
    package func export(now: Date = Date()) async throws(QuestionFailure) -> FlowExportSummary {
        try await exporting { pages, content throws(FlowExportError) in
            switch output {
            case .dataDirectory, .stream:
                let directory = HistoryAccess.dataDirectory(override: dataDirectory).appendingPathComponent(Self.exportsFolderName)
                return try await FlowExporter(directory: directory, format: format)
                    .export(now: now, scope: scope, pages: pages, content: content)
            case let .file(path):
                return try await FlowExporter(file: URL(fileURLWithPath: path), replacingForeignFile: force, format: format)
                    .export(now: now, scope: scope, pages: pages, content: content)
            }
        }
    }

    /// The document handed to `emit` piece by piece, as `export -o -` writes it.
    package func stream(now: Date = Date(), emit: (ArraySlice<UInt8>) throws(FlowExportError) -> Void) async throws(QuestionFailure)
        -> FlowExportSummary {
        try await exporting { pages, content throws(FlowExportError) in
            var byteCount: UInt64 = 0
            let written = try await FlowExporter.stream(now: now, format: format, scope: scope, pages: pages, content: content) {
                bytes throws(FlowExportError) in
                try emit(bytes)
                byteCount += UInt64(bytes.count)
            }
            return FlowExportResult(url: nil, connectionCount: written.connections, byteCount: byteCount, truncated: written.truncated,
                                    requestCount: written.requests, unreadableContent: written.unreadable)
        }
    }

    /// The whole document in memory, and what it holds (for tests and small histories; the web
    /// app's download is `temporaryFile`).
    package func document(now: Date = Date()) async throws(QuestionFailure) -> (bytes: [UInt8], summary: FlowExportSummary) {
        var bytes: [UInt8] = []
        let summary = try await stream(now: now) { piece throws(FlowExportError) in bytes += piece }
        return (bytes, summary)
    }

    /// The document written to a fresh file in `directory` (mode 0600, replaced by nothing), for a
    /// download to send from disk and remove; the caller owns the file.
    func temporaryFile(in directory: URL, now: Date = Date()) async throws(QuestionFailure) -> FlowExportSummary {
        let file = directory.appendingPathComponent("tunnelvision-export-\(String(UInt64.random(in: 0...UInt64.max), radix: 16)).\(format.rawValue)")
        return try await exporting { pages, content throws(FlowExportError) in
            try await FlowExporter(file: file, format: format).export(now: now, scope: scope, pages: pages, content: content)
        }
    }

    /// What the export would hold, said without writing it (`export --summary`, the web app's
    /// summary): the count and the truncation from the history's own count, the size exact for a
    /// history of up to `FlowExportEstimate.sampleSize` connections and estimated past it.
    package func summary(now: Date = Date()) async throws(QuestionFailure) -> FlowExportSummary {
        try await HistoryAccess.reading(dataDirectory, prefix: "nothing exported: ") { store throws(QuestionFailure) in
            let limit = FlowExport.defaultLimit
            do {
                let total = try await store.flowCount()
                let connections = min(total, limit)
                let sample = try await Self.historyPages(store)(min(connections, FlowExportEstimate.sampleSize), nil)
                let size = FlowExportEstimate.bytes(sample: sample, connections: connections, limit: limit,
                                                    truncated: total > limit, exportedAt: now)
                let result = FlowExportResult(url: nil, connectionCount: connections, byteCount: size.bytes, truncated: total > limit)
                return FlowExportSummary(result, historyConnections: total > limit ? total : nil, limit: limit,
                                         stage: .planned(sizeEstimated: size.estimated))
            } catch {
                throw QuestionFailure(.failed, "\(FlowExportError.history(error))")
            }
        }
    }

    private func exporting(_ write: (FlowExporter.PageProvider, FlowExporter.ContentProvider?) async throws(FlowExportError) -> FlowExportResult)
        async throws(QuestionFailure) -> FlowExportSummary {
        try await HistoryAccess.reading(dataDirectory, prefix: "nothing exported: ") { store throws(QuestionFailure) in
            let result: FlowExportResult
            let content = format == .har ? Self.decryptedContent(store, dataDirectory: dataDirectory) : nil
            do throws(FlowExportError) { result = try await write(Self.historyPages(store, filter: filter, order: order), content) } catch {
                throw QuestionFailure(.failed, "\(error)\(remedy(for: error))")
            }
            let total = result.truncated ? try? await store.flowCount() : nil
            return FlowExportSummary(result, historyConnections: total)
        }
    }

    /// The history's pages for the export, in `order`: the reader's own page read, which moves
    /// no list — unfiltered and newest first, or with `filter` every row the store holds is looked
    /// at, no budget.
    static func historyPages(_ store: FlowStore, filter: HistoryFilter = .none, order: FlowOrder = .newestFirst)
        -> FlowExporter.PageProvider {
        let reader = HistoryReader(store: store)
        guard filter.isActive || order != .newestFirst else { return { limit, cursor in try await reader.flowPage(limit: limit, after: cursor) } }
        return { limit, cursor in try await reader.flowPage(limit: limit, after: cursor, filter: filter, order: order) }
    }

    /// An inspected connection's kept content, read as `flow ID` reads it; nil when none was kept.
    static func decryptedContent(_ store: FlowStore, dataDirectory: String?) -> FlowExporter.ContentProvider {
        let reader = HistoryReader(store: store)
        let plaintext = PlaintextLibrary(dataDirectory: HistoryAccess.dataDirectory(override: dataDirectory))
        return { flow in
            do {
                let chunks = try await plaintext.readable(try await reader.plaintext(forFlow: flow.stored.id))
                guard !chunks.isEmpty else { return .success(nil) }
                return .success(DecryptedContent(chunks, connectionStart: flow.stored.firstSeen, serverEnding: flow.stored.serverEnding))
            } catch {
                return .failure(HistoryError.of(error))
            }
        }
    }

    /// What the person can do, after the exporter's reason.
    private func remedy(for error: FlowExportError) -> String {
        switch error {
        case .foreignFile: "; choose another file with -o FILE, or add --force to replace it"
        case .writeFailed: output == .stream ? "" : "; choose another place with -o FILE"
        case .historyUnreadable: ""
        }
    }
}
