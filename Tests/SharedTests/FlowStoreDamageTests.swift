import Fixtures
import Foundation
import TestSupport
import Testing
@testable import Shared

/// A damaged history — a real one, cut short or with a page overwritten — is refused at open,
/// byte for byte as it was, with where to move it; never written to or recreated.
@Suite struct FlowStoreDamageTests {
    typealias F = StoreFixtures

    /// A real history of `flows` flows, closed and checkpointed (no WAL left beside it).
    static func history(in directory: TemporaryDirectory, flows: Int = 2_000) async throws -> URL {
        let store = try F.store(in: directory)
        try await store.write(FlowStoreErrorTests.batch(flows))
        await store.close()
        let url = F.databaseURL(in: directory)
        #expect(!DatabaseFile.hasWALContent(url.path))
        return url
    }

    static func expectDamaged(_ url: URL, in directory: TemporaryDirectory, reason expected: (String) -> Bool) throws {
        let before = try F.bytes(of: url)
        let files = try F.files(in: directory)
        let error = #expect(throws: StoreError.self) { try FlowStore(databaseURL: url) }
        guard case let .damaged(path, reason, setAside)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(path == url.path)
        #expect(expected(reason), "\(reason)")
        #expect(setAside.hasPrefix(url.path + ".damaged-"))
        let text = error?.description ?? ""
        #expect(text.contains("move it aside (mv \(url.path) \(setAside)") && text.contains("nothing was changed"), "\(text)")
        #expect(try F.bytes(of: url) == before)
        #expect(try F.files(in: directory) == files)
    }

    @Test("a history cut short at a page boundary is refused: its header counts pages the file lacks")
    func truncatedAtAPage() async throws {
        let directory = TemporaryDirectory()
        let url = try await Self.history(in: directory)
        let size = try F.bytes(of: url).count
        #expect(truncate(url.path, off_t(size / 2 / 4_096 * 4_096)) == 0)
        try Self.expectDamaged(url, in: directory) { $0.hasPrefix("truncated: its header counts") }
    }

    @Test("a history cut inside a page is refused")
    func truncatedInsideAPage() async throws {
        let directory = TemporaryDirectory()
        let url = try await Self.history(in: directory)
        #expect(truncate(url.path, 10_000) == 0)
        try Self.expectDamaged(url, in: directory) { $0 == "truncated: 10000 bytes is not a whole number of 4096-byte pages" }
    }

    @Test("a table's root page overwritten with garbage is refused at open, before any write")
    func garbageOverARootPage() async throws {
        let directory = TemporaryDirectory()
        let url = try await Self.history(in: directory)
        let reader = try SQLiteConnection(path: url.path, mode: .readOnly)
        let root = try #require(try reader.integer("SELECT rootpage FROM sqlite_master WHERE name = 'packets'"))
        reader.close()
        var bytes = try F.bytes(of: url)
        var random = SeededRandom(seed: 12)
        for index in Int(root - 1) * 4_096..<Int(root) * 4_096 { bytes[index] = UInt8(truncatingIfNeeded: random.next()) }
        try Data(bytes).write(to: url)
        try Self.expectDamaged(url, in: directory) { !$0.isEmpty }
    }

    @Test("a whole history opens: the check reads only edges")
    func aWholeHistoryOpens() async throws {
        let directory = TemporaryDirectory()
        let url = try await Self.history(in: directory)
        let store = try FlowStore(databaseURL: url)
        #expect(try await store.flowCount() == 2_000)
        await store.close()
    }
}
