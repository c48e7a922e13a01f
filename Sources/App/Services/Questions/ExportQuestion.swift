import Foundation
import Shared

/// The export's question (`tunnelvision export`, `POST /api/export`, `GET /api/export/summary`):
/// the whole history as one JSON document — to a file, or streamed — and what was written.
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

    public static let exportsFolderName = "exports"

    public init(dataDirectory: String? = nil, output: Output = .dataDirectory, force: Bool = false) {
        self.dataDirectory = dataDirectory
        self.output = output
        self.force = force
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
        if let output = try takeValue(of: "-o", what: "a file (or - for standard output)") {
            question.output = output == "-" ? .stream : .file(output)
        }
        question.force = rest.contains("--force")
        rest.removeAll { $0 == "--force" }
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

    /// The whole document in memory, and what it holds (the web app's download and its summary).
    public func document(now: Date = Date()) async throws(QuestionFailure) -> (bytes: [UInt8], summary: FlowExportSummary) {
        var bytes: [UInt8] = []
        let summary = try await stream(now: now) { piece throws(FlowExportError) in bytes += piece }
        return (bytes, summary)
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
