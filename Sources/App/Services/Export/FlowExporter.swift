import Foundation
import Shared

/// Writes the whole history, metadata only, as the JSON of `FlowExport` (seeds/000 § Flow export):
/// the most recent connections up to the cap, read page by page from whoever provides them and
/// written out in pieces, never the whole document in memory. An actor because it writes to disk.
///
/// Each export replaces the previous one under the same name, through a temporary file, so a
/// failure midway leaves no file behind and the previous export intact; a file that is not an
/// earlier export is never replaced unless asked for.
public actor FlowExporter {
    public typealias PageProvider = @Sendable (Int, FlowCursor?) async throws -> [HistoryFlow]

    private let resolveDestination: @Sendable () throws -> URL
    private let createsDirectory: Bool
    private let replacesForeignFile: Bool
    public let limit: Int
    public let pageSize: Int
    /// Bytes gathered before they are written out.
    static let pieceSize = 1 << 16
    /// Rows per page: a few dozen queries for the cap, each small.
    public static let defaultPageSize = 500

    /// Exports to `FlowExport.fileName` in `directory`, created 0700 if missing.
    public init(directory: URL, limit: Int = FlowExport.defaultLimit, pageSize: Int = FlowExporter.defaultPageSize) {
        self.init(resolvingDirectory: { directory }, limit: limit, pageSize: pageSize)
    }

    /// Exports into the directory `resolvingDirectory` names when asked; its failure is a write failure.
    public init(resolvingDirectory: @escaping @Sendable () throws -> URL, limit: Int = FlowExport.defaultLimit,
                pageSize: Int = FlowExporter.defaultPageSize) {
        resolveDestination = { try resolvingDirectory().appendingPathComponent(FlowExport.fileName) }
        createsDirectory = true
        replacesForeignFile = false
        self.limit = limit
        self.pageSize = pageSize
    }

    /// Exports into a folder of the system's temporary directory.
    public init(limit: Int = FlowExport.defaultLimit, pageSize: Int = FlowExporter.defaultPageSize) {
        self.init(directory: FileManager.default.temporaryDirectory.appendingPathComponent("tunnelvision-export"),
                  limit: limit, pageSize: pageSize)
    }

    /// Exports to `file`, whose directory must exist; a file there that is not an earlier export is
    /// replaced only when `replacingForeignFile`.
    public init(file: URL, replacingForeignFile: Bool = false, limit: Int = FlowExport.defaultLimit,
                pageSize: Int = FlowExporter.defaultPageSize) {
        resolveDestination = { file }
        createsDirectory = false
        replacesForeignFile = replacingForeignFile
        self.limit = limit
        self.pageSize = pageSize
    }

    /// Writes the export, replacing the previous one; on any failure nothing is left behind.
    public func export(now: Date, pages: PageProvider) async throws(FlowExportError) -> FlowExportResult {
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
            let written = try await Self.stream(now: now, limit: limit, pageSize: pageSize, pages: pages) {
                bytes throws(FlowExportError) in try file.write(bytes)
            }
            try file.commit(replacingForeignFile: replacesForeignFile)
            return FlowExportResult(url: destination, connectionCount: written.connections, byteCount: file.bytesWritten,
                                    truncated: written.truncated)
        } catch {
            file.abandon()
            throw error
        }
    }

    /// The document, page by page, handed to `emit` in pieces of about `pieceSize` bytes: the
    /// exporter's file or any other stream (standard output).
    public static func stream(now: Date, limit: Int = FlowExport.defaultLimit, pageSize: Int = FlowExporter.defaultPageSize,
                              pages: PageProvider,
                              emit: (ArraySlice<UInt8>) throws(FlowExportError) -> Void) async throws(FlowExportError)
        -> (connections: Int, truncated: Bool) {
        var paging = FlowExportPaging(limit: limit, pageSize: pageSize)
        var out = JSONWriter(capacity: pieceSize + 4096)
        var stamps = UTCTimestamp()
        var totals = FlowExport.Totals()
        FlowExport.header(&out, exportedAt: now, limit: paging.limit)
        while true {
            let flows: [HistoryFlow]
            switch paging.next {
            case let .finished(truncated):
                FlowExport.trailer(&out, totals: totals, truncated: truncated)
                try emit(out.writer.bytes)
                return (totals.connections, truncated)
            case let .page(rows, cursor):
                flows = try await read(pages, rows, cursor)
            case let .probe(cursor):
                flows = try await read(pages, 1, cursor)
            }
            for flow in paging.received(flows) {
                FlowExport.entry(flow, &out, stamps: &stamps)
                totals.add(flow)
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
