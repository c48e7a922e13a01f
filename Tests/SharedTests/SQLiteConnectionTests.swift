import CSQLite
import Foundation
import TestSupport
import Testing
@testable import Shared

@Suite struct SQLiteConnectionTests {
    private func connection(_ directory: TemporaryDirectory) throws -> SQLiteConnection {
        try SQLiteConnection(path: directory.url.appendingPathComponent("test.sqlite").path, mode: .readWriteCreate)
    }

    @Test func everyBoundTypeReadsBackAsItWasAndEmptyIsNotNull() throws {
        let directory = TemporaryDirectory()
        let database = try connection(directory)
        try database.execute("CREATE TABLE t (i, s, b, n)")
        try database.withStatement("INSERT INTO t VALUES (?1, ?2, ?3, ?4)") { insert throws(SQLiteError) in
            for (integer, text, blob) in [(Int64.min, "héllo", [UInt8]([0, 1, 255])), (7, "", [])] {
                insert.bind(integer, at: 1)
                insert.bind(text, at: 2)
                insert.bind(blob, at: 3)
                insert.bind(nil as String?, at: 4)
                try insert.step()
                insert.reset()
            }
        }
        let rows = try database.withStatement("SELECT i, s, b, n, typeof(s), typeof(b) FROM t ORDER BY rowid") {
            statement throws(SQLiteError) in
            var rows: [[SQLiteValue]] = []
            while try statement.step() { rows.append((0..<6).map { statement.value(at: $0) }) }
            return rows
        }
        #expect(rows == [
            [.integer(.min), .text("héllo"), .blob([0, 1, 255]), .null, .text("text"), .text("blob")],
            [.integer(7), .text(""), .blob([]), .null, .text("text"), .text("blob")],
        ])
    }

    @Test func aFailureCarriesSQLitesOwnMessageAndExtendedCode() throws {
        let directory = TemporaryDirectory()
        let database = try connection(directory)
        let syntax = #expect(throws: SQLiteError.self) { try database.execute("SELEKT 1") }
        #expect(syntax?.primaryCode == SQLITE_ERROR)
        #expect(syntax?.message.contains("syntax error") == true)

        try database.execute("CREATE TABLE t (x UNIQUE); INSERT INTO t VALUES (1)")
        let duplicate = #expect(throws: SQLiteError.self) { try database.execute("INSERT INTO t VALUES (1)") }
        #expect(duplicate?.code == 2067)   // SQLITE_CONSTRAINT_UNIQUE
        #expect(duplicate?.primaryCode == SQLITE_CONSTRAINT)
        #expect(duplicate?.description.contains("UNIQUE constraint failed: t.x") == true)
    }

    @Test func aBindOutOfRangeIsThrownByTheNextStep() throws {
        let directory = TemporaryDirectory()
        let database = try connection(directory)
        let error = #expect(throws: SQLiteError.self) {
            try database.withStatement("SELECT ?1") { statement throws(SQLiteError) in
                statement.bind(1, at: 9)
                try statement.step()
            }
        }
        #expect(error?.primaryCode == SQLITE_RANGE)
    }

    @Test func aTransactionRollsBackWhenItsBodyThrowsAndCommitsWhenItReturns() throws {
        let directory = TemporaryDirectory()
        let database = try connection(directory)
        try database.execute("CREATE TABLE t (x)")
        #expect(throws: SQLiteError.self) {
            try database.transaction { () throws(SQLiteError) in
                try database.execute("INSERT INTO t VALUES (1)")
                try database.execute("INSERT INTO missing VALUES (2)")
            }
        }
        #expect(try database.integer("SELECT count(*) FROM t") == 0)
        try database.transaction { () throws(SQLiteError) in try database.execute("INSERT INTO t VALUES (3)") }
        #expect(try database.integer("SELECT sum(x) FROM t") == 3)
        // The failed transaction left none open behind it.
        try database.transaction { () throws(SQLiteError) in try database.execute("INSERT INTO t VALUES (4)") }
    }

    @Test func aCachedStatementIsResetAfterEachUseEvenWhenItsBodyThrows() throws {
        let directory = TemporaryDirectory()
        let database = try connection(directory)
        try database.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1), (2), (3)")
        struct Stop: Error {}
        for _ in 0..<3 {
            let first = try database.cached("SELECT x FROM t ORDER BY x") { statement throws(SQLiteError) in
                try statement.step() ? statement.int64(at: 0) : nil
            }
            #expect(first == 1)
        }
        #expect(throws: SQLiteError.self) {
            try database.cached("SELECT x FROM t ORDER BY x") { statement throws(SQLiteError) in
                try statement.step()
                throw SQLiteError(code: SQLITE_ABORT, message: "stop")
            }
        }
        // A statement left mid-read would hold the table: this write succeeds only if it was reset.
        try database.execute("DROP TABLE t")
    }

    @Test func anImmutableOpenFindsAPathWithURICharactersAndCreatesNothing() throws {
        let directory = TemporaryDirectory()
        let path = directory.url.appendingPathComponent("a ?b#c%d.sqlite").path
        let writer = try SQLiteConnection(path: path, mode: .readWriteCreate)
        try writer.execute("CREATE TABLE t (x); PRAGMA user_version = 5")
        writer.close()
        let reader = try SQLiteConnection(path: path, mode: .immutable)
        #expect(try reader.integer("PRAGMA user_version") == 5)
        reader.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["a ?b#c%d.sqlite"])
    }

    @Test func aClosedConnectionRefusesWorkInsteadOfCrashing() throws {
        let directory = TemporaryDirectory()
        let database = try connection(directory)
        let statement = try database.prepare("SELECT 1")
        database.close()
        database.close()
        #expect(throws: SQLiteError.self) { try database.execute("SELECT 1") }
        statement.finalize()
        #expect(throws: SQLiteError.self) { try statement.step() }
    }
}
