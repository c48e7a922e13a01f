#if canImport(Glibc)
import Glibc
#endif
import Foundation
import App
import Shared

/// `tunnelvision export [--data-dir D] [-o FILE|-] [--force] [--json]`: the shell around
/// `FlowExporter` — open the history for reading, choose the file, export, say what was written.
enum ExportCommand {
    enum Output: Equatable {
        /// DATA/exports/connections.json.
        case dataDirectory
        case file(String)
        case standardOutput
    }

    struct Request: Equatable {
        var dataDirectory: String?
        var output: Output = .dataDirectory
        var force = false
        var json = false
    }

    static let exportsFolderName = "exports"

    static let help = """
    tunnelvision export [--data-dir D] [-o FILE|-] [--force] [--json]

    Writes the whole history as one JSON file: for each connection its protocol, both ends as
    stored ("peers") and split into "local" and "remote" (null when that cannot be told), its name
    and where the name came from (sni|quic|dns), first and last seen (UTC), bytes sent and
    received, packets and encryption status (plaintext|encrypted|inspected|notInspectable).
    Metadata only — the file says so in its "contents" field; the packets are in the captures.
    At most the 20 000 most recent connections: when the history holds more, the file and this
    command say "truncated".

    The file goes to D/exports/connections.json (mode 0600, in a 0700 folder), replacing the
    previous export. It is written beside its place and renamed over it, so a failure leaves
    the previous export as it was and no half file.
    -o FILE   write it there instead. A file that is not an earlier export is left alone
              unless --force is given; a symbolic link is never followed.
    -o -      write the document to standard output.
    --json    print what was written as JSON: {"path", "connections", "bytes", "truncated",
              "historyConnections"}.
    Exit status 1 when nothing could be exported (the history cannot be read, the file cannot
    be written or is not an earlier export), 2 on a usage error.
    """

    /// The arguments after `export` (`--json` already taken out by `Invocation`).
    static func parse(_ arguments: [String], json: Bool) throws(Invocation.UsageError) -> Request {
        var rest = arguments
        var request = Request(json: json)
        request.dataDirectory = try takeValue(of: "--data-dir", what: "a directory", from: &rest)
        if let output = try takeValue(of: "-o", what: "a file (or - for standard output)", from: &rest) {
            request.output = output == "-" ? .standardOutput : .file(output)
        }
        request.force = rest.contains("--force")
        rest.removeAll { $0 == "--force" }
        if let extra = rest.first {
            throw Invocation.UsageError(message: extra.hasPrefix("-") ? "export: unknown option \(extra)" : "export: unexpected \(extra)")
        }
        if json && request.output == .standardOutput {
            throw Invocation.UsageError(message: "export: --json describes the file written; with -o - the document itself is the output")
        }
        return request
    }

    static func run(_ request: Request) async -> Int32 {
        let store: FlowStore
        do {
            store = try HistoryAccess.openStore(dataDirectory: request.dataDirectory)
        } catch {
            printError("tunnelvision: nothing exported: \(error)")
            return 1
        }
        let status = await export(request, from: store)
        await store.close()
        return status
    }

    private static func export(_ request: Request, from store: FlowStore) async -> Int32 {
        let pages = historyPages(store)
        let now = Date()
        let result: FlowExportResult
        do throws(FlowExportError) {
            switch request.output {
            case .standardOutput:
                var output = StandardOutput()
                var byteCount: UInt64 = 0
                let written = try await FlowExporter.stream(now: now, pages: pages) { bytes throws(FlowExportError) in
                    do throws(StandardOutput.OutputError) { try output.write(bytes) } catch { throw .writeFailed(error.description) }
                    byteCount += UInt64(bytes.count)
                }
                result = FlowExportResult(url: nil, connectionCount: written.connections, byteCount: byteCount,
                                          truncated: written.truncated)
            case .dataDirectory:
                let directory = HistoryAccess.dataDirectory(override: request.dataDirectory)
                    .appendingPathComponent(exportsFolderName)
                result = try await FlowExporter(directory: directory).export(now: now, pages: pages)
            case let .file(path):
                let exporter = FlowExporter(file: URL(fileURLWithPath: path), replacingForeignFile: request.force)
                result = try await exporter.export(now: now, pages: pages)
            }
        } catch {
            printError("tunnelvision: \(error)\(remedy(for: error, request))")
            return 1
        }
        let total = result.truncated ? try? await store.flowCount() : nil
        let summary = FlowExportSummary(result, historyConnections: total)
        if request.output == .standardOutput {
            // Standard output holds the document; only a cut export is worth a word beside it.
            if let truncation = summary.truncation { printError("tunnelvision: \(truncation)") }
        } else {
            print(request.json ? summary.json : summary.lines.joined(separator: "\n"))
        }
        return 0
    }

    /// The history's pages for the export, newest first: the reader's own page read, which applies
    /// no filter and moves no list.
    static func historyPages(_ store: FlowStore) -> FlowExporter.PageProvider {
        let reader = HistoryReader(store: store)
        return { limit, cursor in try await reader.flowPage(limit: limit, after: cursor) }
    }

    /// What the person can do, after the exporter's reason.
    private static func remedy(for error: FlowExportError, _ request: Request) -> String {
        switch error {
        case .foreignFile: "; choose another file with -o FILE, or add --force to replace it"
        case .writeFailed: request.output == .standardOutput ? "" : "; choose another place with -o FILE"
        case .historyUnreadable: ""
        }
    }

    private static func takeValue(of option: String, what: String,
                                  from arguments: inout [String]) throws(Invocation.UsageError) -> String? {
        guard let index = arguments.firstIndex(of: option) else { return nil }
        guard index + 1 < arguments.count else { throw Invocation.UsageError(message: "export: \(option) needs \(what)") }
        defer { arguments.removeSubrange(index...index + 1) }
        return arguments[index + 1]
    }
}
