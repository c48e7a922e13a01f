import Foundation
import Shared

/// Writes the whole history, metadata only, as the JSON of `FlowExport` (seeds/000 § Flow export):
/// the most recent connections up to the cap, read page by page from whoever provides them and
/// written out in pieces, never the whole document in memory. An actor because it writes to disk.
///
/// Each export replaces the previous one under the same name, through a temporary file, so a
/// failure midway leaves no file behind and the previous export intact; a file that is not an
/// earlier export is never replaced unless asked for.
package actor FlowExporter {
    package typealias PageProvider = @Sendable (Int, FlowCursor?) async throws -> [HistoryFlow]
    /// An inspected connection's decrypted content, for HAR: nil when none was kept; a failure
    /// to read it is counted and said, never taken for none.
    package typealias ContentProvider = @Sendable (HistoryFlow) async -> Result<DecryptedContent?, HistoryError>

    private let resolveDestination: @Sendable () throws -> URL
    private let createsDirectory: Bool
    private let replacesForeignFile: Bool
    package let format: FlowExportFormat
    package let limit: Int
    package let pageSize: Int
    /// Bytes gathered before they are written out.
    static let pieceSize = 1 << 16
    /// Rows per page: a few dozen queries for the cap, each small.
    package static let defaultPageSize = 500

    /// Exports to the format's file name in `directory`, created 0700 if missing.
    package init(directory: URL, format: FlowExportFormat = .json, limit: Int = FlowExport.defaultLimit,
                pageSize: Int = FlowExporter.defaultPageSize) {
        self.init(resolvingDirectory: { directory }, format: format, limit: limit, pageSize: pageSize)
    }

    /// Exports into the directory `resolvingDirectory` names when asked; its failure is a write failure.
    package init(resolvingDirectory: @escaping @Sendable () throws -> URL, format: FlowExportFormat = .json,
                limit: Int = FlowExport.defaultLimit, pageSize: Int = FlowExporter.defaultPageSize) {
        resolveDestination = { try resolvingDirectory().appendingPathComponent(format.fileName) }
        createsDirectory = true
        replacesForeignFile = false
        self.format = format
        self.limit = limit
        self.pageSize = pageSize
    }

    /// Exports into a folder of the system's temporary directory.
    package init(limit: Int = FlowExport.defaultLimit, pageSize: Int = FlowExporter.defaultPageSize) {
        self.init(directory: FileManager.default.temporaryDirectory.appendingPathComponent("tunnelvision-export"),
                  limit: limit, pageSize: pageSize)
    }

    /// Exports to `file`, whose directory must exist; a file there that is not an earlier export is
    /// replaced only when `replacingForeignFile`.
    package init(file: URL, replacingForeignFile: Bool = false, format: FlowExportFormat = .json, limit: Int = FlowExport.defaultLimit,
                pageSize: Int = FlowExporter.defaultPageSize) {
        resolveDestination = { file }
        createsDirectory = false
        replacesForeignFile = replacingForeignFile
        self.format = format
        self.limit = limit
        self.pageSize = pageSize
    }

    /// Writes the export, replacing the previous one; on any failure nothing is left behind.
    package func export(now: Date, scope: String = FlowExport.scope, pages: PageProvider,
                       content: ContentProvider? = nil) async throws(FlowExportError) -> FlowExportResult {
        let destination: URL
        do {
            destination = try resolveDestination()
        } catch {
            throw .writeFailed("the folder for exports could not be found: \(error)")
        }
        if createsDirectory {
            do {
                try PrivateDirectory.create(destination.deletingLastPathComponent())
            } catch {
                throw .writeFailed(error.description)
            }
        }
        var file = try FlowExportFile(destination: destination, replacingForeignFile: replacesForeignFile)
        do throws(FlowExportError) {
            let written = try await Self.stream(now: now, format: format, scope: scope, limit: limit, pageSize: pageSize,
                                                pages: pages, content: content) { bytes throws(FlowExportError) in try file.write(bytes) }
            try file.commit(replacingForeignFile: replacesForeignFile)
            return FlowExportResult(url: destination, connectionCount: written.connections, byteCount: file.bytesWritten,
                                    truncated: written.truncated, requestCount: written.requests, unreadableContent: written.unreadable)
        } catch {
            file.abandon()
            throw error
        }
    }

    /// The document, page by page, handed to `emit` in pieces of about `pieceSize` bytes: the
    /// exporter's file or any other stream (standard output). HAR holds only the connections
    /// whose decrypted content `content` gives (`requests` counts its entries; nil otherwise).
    package static func stream(now: Date, format: FlowExportFormat = .json, scope: String = FlowExport.scope,
                              limit: Int = FlowExport.defaultLimit, pageSize: Int = FlowExporter.defaultPageSize,
                              pages: PageProvider, content: ContentProvider? = nil,
                              emit: (ArraySlice<UInt8>) throws(FlowExportError) -> Void) async throws(FlowExportError)
        -> (connections: Int, truncated: Bool, requests: Int?, unreadable: Int) {
        var paging = FlowExportPaging(limit: limit, pageSize: pageSize)
        var out = JSONWriter(capacity: pieceSize + 4096)
        var stamps = UTCTimestamp()
        var totals = FlowExport.Totals()
        var requests = 0, unreadable = 0
        switch format {
        case .json: FlowExport.header(&out, exportedAt: now, limit: paging.limit, scope: scope)
        case .csv: out.writer.append(FlowExportCSV.header)
        case .har: HARExport.header(&out)
        }
        while true {
            let flows: [HistoryFlow]
            switch paging.next {
            case let .finished(truncated):
                switch format {
                case .json: FlowExport.trailer(&out, totals: totals, truncated: truncated)
                case .csv: break
                case .har: HARExport.trailer(&out)
                }
                try emit(out.writer.bytes)
                return (totals.connections, truncated, format == .har ? requests : nil, unreadable)
            case let .page(rows, cursor):
                flows = try await read(pages, rows, cursor)
            case let .probe(cursor):
                flows = try await read(pages, 1, cursor)
            }
            for flow in paging.received(flows) {
                switch format {
                case .json:
                    FlowExport.entry(flow, &out, stamps: &stamps)
                    totals.add(flow)
                case .csv:
                    out.writer.append(FlowExportCSV.line(flow))
                    totals.add(flow)
                case .har:
                    guard flow.stored.tlsStatus == .inspected, let reading = await content?(flow) else { continue }
                    guard case let .success(kept) = reading else {
                        unreadable += 1
                        continue
                    }
                    guard let decrypted = kept else { continue }
                    let entries = HARExport.entries(of: flow, decrypted, to: &out)
                    requests += entries
                    if entries > 0 { totals.add(flow) }
                }
                if out.writer.count >= pieceSize {
                    try emit(out.writer.bytes)
                    out.writer.removeAll()
                }
            }
        }
    }

    private static func read(_ pages: PageProvider, _ rows: Int, _ cursor: FlowCursor?) async throws(FlowExportError) -> [HistoryFlow] {
        do {
            return try await pages(rows, cursor)
        } catch {
            throw FlowExportError.history(error)
        }
    }
}
