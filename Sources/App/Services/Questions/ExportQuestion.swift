import Foundation
import Shared

/// The export's question (`tunnelvision export`, `POST /api/export`, `GET /api/export/summary`):
/// the whole history as one JSON document — to a file, or streamed — and what was written; or,
/// with `--summary`, what it would hold, said without writing it.
public struct ExportQuestion: Sendable, Equatable {
    public enum Output: Sendable, Equatable {
        /// DATA/exports/connections.json.
        case dataDirectory
        case file(String)
        /// Handed to the caller piece by piece (standard output, a download).
        case stream
    }

    public var dataDirectory: String?
    public var output: Output = .dataDirectory
    public var force = false
    /// `--summary`: say what the export would hold, write nothing.
    public var summaryOnly = false

    public static let exportsFolderName = "exports"

    public init(dataDirectory: String? = nil, output: Output = .dataDirectory, force: Bool = false, summaryOnly: Bool = false) {
        self.dataDirectory = dataDirectory
        self.output = output
        self.force = force
        self.summaryOnly = summaryOnly
    }

    /// Reads the arguments of `export`; `json` says whether `--json` was given.
    public static func parse(_ arguments: [String], json: Bool) throws(QuestionFailure) -> ExportQuestion {
        var rest = arguments
        var question = ExportQuestion()
        func takeValue(of option: String, what: String) throws(QuestionFailure) -> String? {
            guard let index = rest.firstIndex(of: option) else { return nil }
            guard index + 1 < rest.count else { throw .usage("export: \(option) needs \(what)") }
            defer { rest.removeSubrange(index...index + 1) }
            return rest[index + 1]
        }
        question.dataDirectory = try takeValue(of: "--data-dir", what: "a directory")
        let outputNamed = rest.contains("-o")
        if let output = try takeValue(of: "-o", what: "a file (or - for standard output)") {
            question.output = output == "-" ? .stream : .file(output)
        }
        question.force = rest.contains("--force")
        question.summaryOnly = rest.contains("--summary")
        rest.removeAll { $0 == "--force" || $0 == "--summary" }
        if question.summaryOnly && (outputNamed || question.force) {
            throw .usage("export: --summary writes nothing, so -o and --force do not go with it")
        }
        if let extra = rest.first {
            throw .usage(extra.hasPrefix("-") ? "export: unknown option \(extra)" : "export: unexpected \(extra)")
        }
        if json && question.output == .stream {
            throw .usage("export: --json describes the file written; with -o - the document itself is the output")
        }
        return question
    }

    /// The document written to its file (`output` is not `.stream`).
    public func export(now: Date = Date()) async throws(QuestionFailure) -> FlowExportSummary {
        try await exporting { pages throws(FlowExportError) in
            switch output {
            case .dataDirectory, .stream:
                let directory = HistoryAccess.dataDirectory(override: dataDirectory).appendingPathComponent(Self.exportsFolderName)
                return try await FlowExporter(directory: directory).export(now: now, pages: pages)
            case let .file(path):
                return try await FlowExporter(file: URL(fileURLWithPath: path), replacingForeignFile: force).export(now: now, pages: pages)
            }
        }
    }

    /// The document handed to `emit` piece by piece, as `export -o -` writes it.
    public func stream(now: Date = Date(), emit: (ArraySlice<UInt8>) throws(FlowExportError) -> Void) async throws(QuestionFailure)
        -> FlowExportSummary {
        try await exporting { pages throws(FlowExportError) in
            var byteCount: UInt64 = 0
            let written = try await FlowExporter.stream(now: now, pages: pages) { bytes throws(FlowExportError) in
                try emit(bytes)
                byteCount += UInt64(bytes.count)
            }
            return FlowExportResult(url: nil, connectionCount: written.connections, byteCount: byteCount, truncated: written.truncated)
        }
    }

    /// The whole document in memory, and what it holds (for tests and small histories; the web
    /// app's download is `temporaryFile`).
    public func document(now: Date = Date()) async throws(QuestionFailure) -> (bytes: [UInt8], summary: FlowExportSummary) {
        var bytes: [UInt8] = []
        let summary = try await stream(now: now) { piece throws(FlowExportError) in bytes += piece }
        return (bytes, summary)
    }

    /// The document written to a fresh file in `directory` (mode 0600, replaced by nothing), for a
    /// download to send from disk and remove; the caller owns the file.
    public func temporaryFile(in directory: URL, now: Date = Date()) async throws(QuestionFailure) -> FlowExportSummary {
        let file = directory.appendingPathComponent("tunnelvision-export-\(String(UInt64.random(in: 0...UInt64.max), radix: 16)).json")
        return try await exporting { pages throws(FlowExportError) in
            try await FlowExporter(file: file).export(now: now, pages: pages)
        }
    }

    /// What the export would hold, said without writing it (`export --summary`, the web app's
    /// summary): the count and the truncation from the history's own count, the size exact for a
    /// history of up to `FlowExportEstimate.sampleSize` connections and estimated past it.
    public func summary(now: Date = Date()) async throws(QuestionFailure) -> FlowExportSummary {
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

    private func exporting(_ write: (FlowExporter.PageProvider) async throws(FlowExportError) -> FlowExportResult)
        async throws(QuestionFailure) -> FlowExportSummary {
        try await HistoryAccess.reading(dataDirectory, prefix: "nothing exported: ") { store throws(QuestionFailure) in
            let result: FlowExportResult
            do throws(FlowExportError) { result = try await write(Self.historyPages(store)) } catch {
                throw QuestionFailure(.failed, "\(error)\(remedy(for: error))")
            }
            let total = result.truncated ? try? await store.flowCount() : nil
            return FlowExportSummary(result, historyConnections: total)
        }
    }

    /// The history's pages for the export, newest first: the reader's own page read, which applies
    /// no filter and moves no list.
    static func historyPages(_ store: FlowStore) -> FlowExporter.PageProvider {
        let reader = HistoryReader(store: store)
        return { limit, cursor in try await reader.flowPage(limit: limit, after: cursor) }
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
