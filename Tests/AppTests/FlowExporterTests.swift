#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared
import TestSupport
import Testing
import App

/// The exporter against real files in a temporary directory, with a scripted history (the seam that
/// makes a history failing halfway reachable), and once against a real FlowStore.
@Suite("Exporting the history to a file")
struct FlowExporterTests {
    static let now = Date(timeIntervalSince1970: 1_796_005_130)

    static func ids(in url: URL) throws -> [Int] {
        let document = try exportDocument(Data(contentsOf: url))
        return (document["connections"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
    }

    static func listing(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test("pages are chained without repeating or skipping a connection, newest first")
    func chainedPages() async throws {
        let fixture = try ExportHistoryFixture()
        let flows = try await fixture.write(count: 23)
        let history = ScriptedHistory(flows)
        let directory = fixture.directory.url.appendingPathComponent("exports")
        let result = try await FlowExporter(directory: directory, limit: 100, pageSize: 5).export(now: Self.now,
                                                                                                   pages: history.provider)
        let ids = try Self.ids(in: try #require(result.url))
        #expect(ids == flows.map { Int($0.id) })
        #expect(Set(ids).count == 23)
        #expect(result.connectionCount == 23 && !result.truncated)
        #expect(await history.asked == [5, 5, 5, 5, 5])
        #expect(result.byteCount == UInt64(try Data(contentsOf: try #require(result.url)).count))
        await fixture.close()
    }

    @Test("sorted, pages of a real store chain in that order, ties by id, none repeated or skipped; the cap keeps the first in it")
    func sortedPagesChainInTheirOrder() async throws {
        let fixture = try ExportHistoryFixture()
        // Bytes received in four values, so most pages end inside a run of equal ones.
        _ = try await fixture.write((0..<23).map {
            ExportHistoryFixture.record(port: UInt16(41_000 + $0), lastSeen: 2_000_000 + UInt64($0) * 1_000, bytesIn: UInt64($0 % 4) * 100)
        })
        let order = try #require(HistorySort.parse("received:asc"))
        let truth = try await fixture.store.flows(in: order, limit: 100, after: nil).map { Int($0.flow.id) }
        let reader = HistoryReader(store: fixture.store)
        let pages: FlowExporter.PageProvider = { limit, cursor in
            try await reader.flowPage(limit: limit, after: cursor, filter: .none, order: order)
        }
        let directory = fixture.directory.url.appendingPathComponent("exports")
        let whole = try await FlowExporter(directory: directory, limit: 100, pageSize: 5).export(now: Self.now, pages: pages)
        #expect(try Self.ids(in: try #require(whole.url)) == truth)
        let capped = try await FlowExporter(directory: directory, limit: 12, pageSize: 5).export(now: Self.now, pages: pages)
        #expect(try Self.ids(in: try #require(capped.url)) == Array(truth.prefix(12)) && capped.truncated)
        await fixture.close()
    }

    @Test("the cap cuts the export to the most recent connections, and the file says truncated")
    func capCuts() async throws {
        let fixture = try ExportHistoryFixture()
        let flows = try await fixture.write(count: 23)
        let history = ScriptedHistory(flows)
        let result = try await FlowExporter(directory: fixture.directory.url, limit: 10, pageSize: 4)
            .export(now: Self.now, pages: history.provider)
        let url = try #require(result.url)
        #expect(try Self.ids(in: url) == flows.prefix(10).map { Int($0.id) })
        #expect(result.truncated && result.connectionCount == 10)
        let document = try exportDocument(Data(contentsOf: url))
        #expect(document["truncated"] as? Bool == true)
        #expect(document["connectionCount"] as? Int == 10)
        // Never more rows than the cap leaves, then one row past the last cursor.
        #expect(await history.asked == [4, 4, 2, 1])
        await fixture.close()
    }

    @Test("a history that ends exactly at the cap is not truncated: that is asked of it, not guessed")
    func endsAtCap() async throws {
        let fixture = try ExportHistoryFixture()
        let flows = try await fixture.write(count: 10)
        let history = ScriptedHistory(flows)
        let result = try await FlowExporter(directory: fixture.directory.url, limit: 10, pageSize: 4)
            .export(now: Self.now, pages: history.provider)
        #expect(!result.truncated && result.connectionCount == 10)
        #expect(await history.asked == [4, 4, 2, 1])
        await fixture.close()
    }

    @Test("a provider handing back more rows than asked cannot push the export past the cap")
    func capHoldsAgainstGenerousProvider() async throws {
        let fixture = try ExportHistoryFixture()
        let flows = try await fixture.write(count: 12)
        let result = try await FlowExporter(directory: fixture.directory.url, limit: 5, pageSize: 100)
            .export(now: Self.now, pages: { _, _ in flows })
        #expect(result.connectionCount == 5 && result.truncated)
        #expect(try Self.ids(in: try #require(result.url)).count == 5)
        await fixture.close()
    }

    @Test("a history failing halfway leaves no file behind, and the previous export as it was")
    func failureHalfway() async throws {
        let fixture = try ExportHistoryFixture()
        let flows = try await fixture.write(count: 23)
        let directory = fixture.directory.url.appendingPathComponent("exports")
        let first = try await FlowExporter(directory: directory, limit: 100, pageSize: 5)
            .export(now: Self.now, pages: ScriptedHistory(Array(flows.prefix(3))).provider)
        let before = try Data(contentsOf: try #require(first.url))
        await #expect(throws: FlowExportError.historyUnreadable(.unreadable("disk I/O error"))) {
            try await FlowExporter(directory: directory, limit: 100, pageSize: 5)
                .export(now: Self.now, pages: ScriptedHistory(flows, failingAtCall: 3).provider)
        }
        #expect(try Self.listing(directory) == [FlowExport.fileName])
        #expect(try Data(contentsOf: try #require(first.url)) == before)
        // And with no previous export, nothing at all.
        let empty = fixture.directory.url.appendingPathComponent("fresh")
        await #expect(throws: FlowExportError.self) {
            try await FlowExporter(directory: empty, pageSize: 5).export(now: Self.now,
                                                                        pages: ScriptedHistory(flows, failingAtCall: 2).provider)
        }
        #expect(try Self.listing(empty).isEmpty)
        await fixture.close()
    }

    @Test("an unreachable directory is a write failure, and the history is not read")
    func unreachableDirectory() async throws {
        let fixture = try ExportHistoryFixture()
        let history = ScriptedHistory(try await fixture.write(count: 3))
        let file = fixture.directory.url.appendingPathComponent("plain-file")
        try Data("x".utf8).write(to: file)
        do {
            _ = try await FlowExporter(directory: file.appendingPathComponent("exports")).export(now: Self.now,
                                                                                                 pages: history.provider)
            Issue.record("an export under a regular file succeeded")
        } catch {
            guard case .writeFailed(let reason) = error else { throw error }
            #expect(reason.contains("plain-file"))
        }
        struct NoFolder: Error, CustomStringConvertible { var description: String { "no such folder" } }
        do {
            _ = try await FlowExporter(resolvingDirectory: { throw NoFolder() }).export(now: Self.now, pages: history.provider)
            Issue.record("an unresolvable directory exported")
        } catch {
            guard case .writeFailed(let reason) = error else { throw error }
            #expect(reason.contains("no such folder"))
        }
        #expect(await history.asked.isEmpty)
        await fixture.close()
    }

    @Test("each export replaces the previous one; a stranger's file beside it is left alone")
    func replacesPreviousKeepsStranger() async throws {
        let fixture = try ExportHistoryFixture()
        let flows = try await fixture.write(count: 7)
        let directory = fixture.directory.url.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let stranger = directory.appendingPathComponent("notes.txt")
        try Data("mine".utf8).write(to: stranger)
        let exporter = FlowExporter(directory: directory)
        _ = try await exporter.export(now: Self.now, pages: ScriptedHistory(Array(flows.prefix(2))).provider)
        let second = try await exporter.export(now: Self.now, pages: ScriptedHistory(flows).provider)
        #expect(try Self.listing(directory) == [FlowExport.fileName, "notes.txt"])
        #expect(try Self.ids(in: try #require(second.url)).count == 7)
        #expect(try Data(contentsOf: stranger) == Data("mine".utf8))
        var status = stat()
        #expect(stat(try #require(second.url).path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        await fixture.close()
    }

    @Test("a file that is not an earlier export is never replaced unless asked; a link is never followed")
    func strangerAtDestination() async throws {
        let fixture = try ExportHistoryFixture()
        let history = ScriptedHistory(try await fixture.write(count: 3))
        let target = fixture.directory.url.appendingPathComponent("report.json")
        try Data("{\"mine\":true}".utf8).write(to: target)
        await #expect(throws: FlowExportError.foreignFile(path: target.path)) {
            try await FlowExporter(file: target).export(now: Self.now, pages: history.provider)
        }
        #expect(try Data(contentsOf: target) == Data("{\"mine\":true}".utf8))
        let link = fixture.directory.url.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        do {
            _ = try await FlowExporter(file: link, replacingForeignFile: true).export(now: Self.now, pages: history.provider)
            Issue.record("an export followed a link")
        } catch {
            guard case .writeFailed(let reason) = error else { throw error }
            #expect(reason.contains("symbolic link"))
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try Data(contentsOf: target) == Data("{\"mine\":true}".utf8))
        let replaced = try await FlowExporter(file: target, replacingForeignFile: true).export(now: Self.now,
                                                                                               pages: history.provider)
        #expect(try Self.ids(in: try #require(replaced.url)).count == 3)
        // Now it is an earlier export: replaced without being asked.
        _ = try await FlowExporter(file: target).export(now: Self.now, pages: history.provider)
        await fixture.close()
    }

    @Test("the document is handed out in pieces, never whole, and the pieces make the same document")
    func writtenInPieces() async throws {
        let fixture = try ExportHistoryFixture()
        let flows = try await fixture.write(count: 40)
        // Each page is the same 40 flows: enough bytes for several pieces without writing thousands.
        var pieces: [Int] = []
        var bytes: [UInt8] = []
        let written = try await FlowExporter.stream(now: Self.now, limit: 2_000, pageSize: 40,
                                                    pages: { _, _ in flows }) { piece throws(FlowExportError) in
            pieces.append(piece.count)
            bytes += piece
        }
        #expect(written.connections == 2_000 && written.truncated)
        #expect(pieces.count > 3)
        #expect(pieces.allSatisfy { $0 < 70_000 })
        let document = try exportDocument(Data(bytes))
        #expect((document["connections"] as? [Any])?.count == 2_000)
        await fixture.close()
    }

    @Test("against a real FlowStore: the most recent connections, in the store's order, cut at the cap")
    func realStore() async throws {
        let fixture = try ExportHistoryFixture()
        _ = try await fixture.write(count: 30)
        let store = fixture.store
        let result = try await FlowExporter(directory: fixture.directory.url, limit: 25, pageSize: 7)
            .export(now: Self.now, pages: { limit, cursor in
                try await store.recentFlows(limit: limit, before: cursor).map { HistoryFlow($0) }
            })
        let expected = try await store.recentFlows(limit: 25).map { Int($0.id) }
        #expect(try Self.ids(in: try #require(result.url)) == expected)
        #expect(result.truncated)
        await fixture.close()
    }
}
