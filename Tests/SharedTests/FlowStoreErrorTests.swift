import CSQLite
import Foundation
import TestSupport
import Testing
@testable import Shared

/// What SQLite reports reaches the caller as the case the person must act on, with SQLite's
/// primary and extended codes kept: each failure made for real on a real file.
@Suite struct FlowStoreErrorTests {
    typealias F = StoreFixtures

    /// A batch of `count` flows with a packet each, big enough to need new pages.
    static func batch(_ count: Int, from first: Int = 1) -> FlowStoreBatch {
        let keys = (first..<first + count).map { F.key($0) }
        return FlowStoreBatch(flows: keys.map { F.record($0, packets: 1) },
                              packets: keys.map { F.packet($0, at: F.uptime(2)) })
    }

    /// The error `body` throws, or nil (recorded as an issue) when it throws none.
    static func storeError(_ body: () async throws(StoreError) -> Void) async -> StoreError? {
        do {
            try await body()
            Issue.record("no error was thrown")
            return nil
        } catch {
            return error
        }
    }

    @Test("a full disk (SQLITE_FULL) is diskFull, the batch is rolled back, and the next write after room is made succeeds")
    func aFullDiskIsDiskFullAndRetryable() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        try await store.write(Self.batch(10))
        // No page past those the file has: the next write that needs one is a full disk to SQLite.
        try await store.limitPages(toCurrent: true)
        let error = await Self.storeError { () async throws(StoreError) in _ = try await store.write(Self.batch(2_000, from: 100)) }
        guard case let .diskFull(path, sqlite)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(path == F.databaseURL(in: directory).path)
        #expect(sqlite.primaryCode == SQLITE_FULL && sqlite.code == SQLITE_FULL)
        #expect(error?.description.contains("is full; free space") == true)
        #expect(try await store.flowCount() == 10)
        try await store.limitPages(toCurrent: false)
        try await store.write(Self.batch(2_000, from: 100))
        #expect(try await store.flowCount() == 2_010)
        await store.close()
    }

    @Test("a write lock held by another connection (SQLITE_BUSY) is locked, not a fault, and nothing was written")
    func aLockHeldElsewhereIsLocked() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        try await store.write(Self.batch(1))
        try await store.waitForLocks(milliseconds: 0)
        let other = try SQLiteConnection(path: F.databaseURL(in: directory).path, mode: .readWriteCreate)
        try other.execute("BEGIN EXCLUSIVE")
        let error = await Self.storeError { () async throws(StoreError) in _ = try await store.write(Self.batch(1, from: 2)) }
        guard case let .locked(_, sqlite)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(sqlite.primaryCode == SQLITE_BUSY)
        #expect(error?.description.contains("another process holds the history") == true)
        try other.execute("ROLLBACK")
        other.close()
        #expect(try await store.flowCount() == 1)
        try await store.write(Self.batch(1, from: 2))
        #expect(try await store.flowCount() == 2)
        await store.close()
    }

    @Test("a history at the current schema opens and reads while a tunnel holds its write lock, without waiting for it")
    func aCurrentHistoryOpensUnderAWriter() async throws {
        let directory = TemporaryDirectory()
        let store = try F.store(in: directory)
        try await store.write(Self.batch(3))
        let writer = try SQLiteConnection(path: F.databaseURL(in: directory).path, mode: .readWriteCreate)
        try writer.execute("BEGIN IMMEDIATE")
        // Each migration step used to take the write lock: five seconds each, then a failed "migration".
        let started = ContinuousClock.now
        let reader = try FlowStore(databaseURL: F.databaseURL(in: directory))
        #expect(try await reader.flowCount() == 3)
        #expect(ContinuousClock.now - started < .milliseconds(Int(FlowStore.busyTimeoutMilliseconds)))
        await reader.close()
        try writer.execute("ROLLBACK")
        writer.close()
        await store.close()
    }

    @Test("a history that needs a migration while another program holds its lock is locked, and stays at its version")
    func aMigrationBlockedByALockIsLocked() throws {
        let directory = TemporaryDirectory()
        let url = F.databaseURL(in: directory)
        try FlowStore.openDatabase(at: url, upTo: 1).close()
        let other = try SQLiteConnection(path: url.path, mode: .readWriteCreate)
        try other.execute("BEGIN IMMEDIATE")
        do {
            _ = try FlowStore(databaseURL: url)
            Issue.record("a locked history opened")
        } catch {
            guard case let .locked(path, sqlite) = error else { Issue.record("\(error)"); return }
            #expect(path == url.path && sqlite.primaryCode == SQLITE_BUSY)
        }
        try other.execute("ROLLBACK")
        #expect(try other.integer("PRAGMA user_version") == 1)
        other.close()
    }

    @Test("garbage over a real database's pages (SQLITE_CORRUPT) is corrupt, whether opening or reading finds it")
    func garbageOverThePagesIsCorrupt() async throws {
        let directory = TemporaryDirectory()
        let url = F.databaseURL(in: directory)
        let store = try F.store(in: directory)
        try await store.write(Self.batch(500))
        await store.close()
        // Keep page 1 (the header that says whose file it is), overwrite every page after it.
        var bytes = try F.bytes(of: url)
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        #expect(bytes.count > 4 * pageSize)
        var random = SystemRandomNumberGenerator()
        for index in pageSize..<bytes.count { bytes[index] = UInt8.random(in: 0...255, using: &random) }
        try Data(bytes).write(to: url)
        for sidecar in DatabaseFile.paths(of: url.path).dropFirst() { try? FileManager.default.removeItem(atPath: sidecar) }
        let error = await Self.storeError { () async throws(StoreError) in
            let damaged = try FlowStore(databaseURL: url)
            _ = try await damaged.recentFlows(limit: 1_000)
            _ = try await damaged.flowCount()
        }
        // The open reads each table's edges, which the garbage covers: refused there, before any write.
        guard case let .damaged(path, _, _)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(path == url.path)
        #expect(error?.description.contains("move it aside") == true)
    }

    @Test("a write on a read-only connection (SQLITE_READONLY) is notWritable, keeping the extended code")
    func aReadOnlyFileIsNotWritable() throws {
        let directory = TemporaryDirectory()
        let path = directory.url.appendingPathComponent("t.sqlite").path
        let writer = try SQLiteConnection(path: path, mode: .readWriteCreate)
        try writer.execute("CREATE TABLE t (x)")
        writer.close()
        let reader = try SQLiteConnection(path: path, mode: .readOnly)
        defer { reader.close() }
        #expect(throws: SQLiteError.self) { try reader.execute("INSERT INTO t VALUES (1)") }
        do {
            try reader.execute("INSERT INTO t VALUES (1)")
        } catch {
            guard case let .notWritable(_, sqlite) = StoreError(error, path: path) else { Issue.record("\(error)"); return }
            #expect(sqlite.primaryCode == SQLITE_READONLY)
        }
    }

    @Test("a file that cannot be opened at all (SQLITE_CANTOPEN) is notWritable, and says what to check")
    func aFileThatCannotBeOpenedIsNotWritable() throws {
        let directory = TemporaryDirectory()
        let missing = directory.url.appendingPathComponent("no/such/dir/t.sqlite").path
        do {
            _ = try SQLiteConnection(path: missing, mode: .readWriteCreate)
            Issue.record("opened \(missing)")
        } catch {
            let mapped = StoreError(error, path: missing)
            guard case let .notWritable(path, sqlite) = mapped else { Issue.record("\(mapped)"); return }
            #expect(path == missing && sqlite.primaryCode == SQLITE_CANTOPEN)
            #expect(mapped.description.contains("owner, mode and mount"))
        }
    }

    @Test("each result code lands in its case, and the extended code survives (SQLITE_IOERR_FSYNC stays 1034)")
    func everyCodeHasItsCase() {
        func mapped(_ code: Int32) -> StoreError { StoreError(SQLiteError(code: code, message: "m"), path: "/h") }
        let fsync = SQLiteError(code: 1_034, message: "m")   // SQLITE_IOERR_FSYNC
        #expect(mapped(1_034) == .ioFailed(path: "/h", fsync) && fsync.primaryCode == SQLITE_IOERR)
        #expect(fsync.description == "m (SQLite result code 10, extended 1034)")
        #expect(mapped(SQLITE_FULL) == .diskFull(path: "/h", SQLiteError(code: SQLITE_FULL, message: "m")))
        for code in [SQLITE_BUSY, SQLITE_LOCKED, 517 /* SQLITE_BUSY_SNAPSHOT */] {
            guard case .locked = mapped(code) else { Issue.record("\(code): \(mapped(code))"); continue }
        }
        for code in [SQLITE_CORRUPT, SQLITE_NOTADB, 267 /* SQLITE_CORRUPT_VTAB */] {
            guard case .corrupt = mapped(code) else { Issue.record("\(code): \(mapped(code))"); continue }
        }
        for code in [SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM, 776 /* SQLITE_READONLY_DBMOVED */] {
            guard case .notWritable = mapped(code) else { Issue.record("\(code): \(mapped(code))"); continue }
        }
        for code in [SQLITE_ERROR, SQLITE_CONSTRAINT, 2_067, SQLITE_MISUSE] {
            guard case .queryFailed(let error) = mapped(code) else { Issue.record("\(code): \(mapped(code))"); continue }
            #expect(error.code == code)
        }
    }
}

extension FlowStore {
    /// Caps the file at the pages it has now (SQLite's `max_page_count`), or lifts the cap.
    func limitPages(toCurrent limit: Bool) throws(StoreError) {
        try sqlite { connection throws(SQLiteError) in
            var pages: Int64 = 4_294_967_294
            if limit { pages = try connection.integer("PRAGMA page_count") ?? 1 }
            _ = try connection.integer("PRAGMA max_page_count = \(pages)")
        }
    }

    /// Sets how long a statement waits for another connection's lock.
    func waitForLocks(milliseconds: Int32) throws(StoreError) {
        try sqlite { connection throws(SQLiteError) in try connection.setBusyTimeout(milliseconds: milliseconds) }
    }
}
