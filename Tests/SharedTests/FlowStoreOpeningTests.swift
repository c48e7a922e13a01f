import CSQLite
import Fixtures
import Foundation
import TestSupport
import Testing
@testable import Shared

/// Creating, migrating and refusing files: the store writes only to what is its own.
@Suite struct FlowStoreOpeningTests {
    /// A raw look at a file the store made, without the store.
    private func inspect(_ url: URL, _ sql: String) throws -> Int64? {
        let connection = try SQLiteConnection(path: url.path, mode: .readOnly)
        defer { connection.close() }
        return try connection.integer(sql)
    }

    private func schema(_ url: URL) throws -> [String] {
        let connection = try SQLiteConnection(path: url.path, mode: .readOnly)
        defer { connection.close() }
        return try connection.withStatement("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name") {
            statement throws(SQLiteError) in
            var statements: [String] = []
            while try statement.step() { statements.append(statement.text(at: 0) ?? "") }
            return statements
        }
    }

    @Test func aNewFileIsOwnerOnlyInWALModeAndAtTheLatestSchema() async throws {
        let directory = TemporaryDirectory()
        let url = StoreFixtures.databaseURL(in: directory)
        let store = try StoreFixtures.store(in: directory)
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try inspect(url, "PRAGMA application_id") == 0x5456_4442)
        #expect(try inspect(url, "PRAGMA user_version") == Int64(FlowStore.Schema.latestVersion))
        let mode = try SQLiteConnection(path: url.path, mode: .readOnly).withStatement("PRAGMA journal_mode") {
            statement throws(SQLiteError) in try statement.step() ? statement.text(at: 0) : nil
        }
        #expect(mode == "wal")
        #expect(try await store.flowCount() == 0)
        await store.close()
    }

    @Test func theDataDirectoryIsCreatedPrivateAndHoldsTheDatabaseUnderItsOneName() async throws {
        let parent = TemporaryDirectory()
        let directory = parent.url.appendingPathComponent("nested/data", isDirectory: true)
        let store = try FlowStore(dataDirectory: directory, anchor: StoreFixtures.anchor)
        try await store.upsertFlow(StoreFixtures.record(StoreFixtures.key(1)))
        await store.close()
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        #expect(FileManager.default.fileExists(atPath: DataDirectoryLayout.database(in: directory).path))
        #expect(store.databaseURL == DataDirectoryLayout.database(in: directory))
    }

    @Test func reopeningChangesNothingAndKeepsTheRows() async throws {
        let directory = TemporaryDirectory()
        let url = StoreFixtures.databaseURL(in: directory)
        let first = try StoreFixtures.store(in: directory)
        try await first.upsertFlow(StoreFixtures.record(StoreFixtures.key(1), packets: 3))
        await first.close()
        let before = try schema(url)
        for _ in 0..<2 {
            let again = try StoreFixtures.store(in: directory)
            #expect(try await again.flowCount() == 1)
            await again.close()
        }
        #expect(try schema(url) == before)
        #expect(try inspect(url, "PRAGMA user_version") == Int64(FlowStore.Schema.latestVersion))
    }

    @Test func migrationsAreNumberedOneByOneUpToTheLatest() {
        #expect(FlowStore.Schema.migrations.map(\.version) == Array(1...FlowStore.Schema.latestVersion))
    }

    @Test(arguments: 1..<FlowStore.Schema.latestVersion)
    func aFileLeftAtAnEarlierVersionMigratesAndItsRowsSurvive(version: Int) async throws {
        let directory = TemporaryDirectory()
        let url = StoreFixtures.databaseURL(in: directory)
        let old = try FlowStore.openDatabase(at: url, upTo: version)
        #expect(try old.integer("PRAGMA user_version") == Int64(version))
        let key = StoreFixtures.key(7)
        let row = FlowRow(record: StoreFixtures.record(key, firstSeen: StoreFixtures.uptime(1), lastSeen: StoreFixtures.uptime(2),
                                                       bytesOut: 100, bytesIn: 200, packets: 3),
                          anchor: StoreFixtures.anchor)
        try old.withStatement("""
            INSERT INTO flows (session, proto, addr_a, port_a, addr_b, port_b, first_seen, last_seen,
                               bytes_out, bytes_in, packet_count, lifetime_first_seen, tls_status, sni)
            VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?6, 1, 'old.example')
            """) { insert throws(SQLiteError) in
            row.key.bind(to: insert, from: 1)
            for (position, value) in [row.firstSeen, row.lastSeen, row.bytesOut, row.bytesIn, row.packetCount].enumerated() {
                insert.bind(value, at: Int32(6 + position))
            }
            try insert.step()
        }
        try old.execute("""
            INSERT INTO packets (flow_id, ts, direction, length, pcap_file, pcap_offset) VALUES (1, \(row.lastSeen), 1, 99, 4, 24);
            INSERT INTO packet_runs (flow_id, first_id, last_id) VALUES (1, 1, 1)
            """)
        if version >= 2 { try old.execute("UPDATE flows SET dns_name = 'resolved.example', stream_opening = 'tlsHandshake'") }
        old.close()

        let store = try StoreFixtures.store(in: directory)
        #expect(try inspect(url, "PRAGMA user_version") == Int64(FlowStore.Schema.latestVersion))
        let flow = try #require(try await store.flow(matching: key))
        #expect(flow.key == key && flow.sni == "old.example" && flow.tlsStatus == .encrypted)
        #expect(flow.bytesOut == 100 && flow.bytesIn == 200 && flow.packetCount == 3)
        #expect(flow.firstSeen == StoreFixtures.date(StoreFixtures.uptime(1)))
        #expect(flow.resolvedName == (version >= 2 ? ResolvedFlowName(name: "resolved.example") : nil))
        #expect(flow.streamOpening == (version >= 2 ? .tlsHandshake : nil))
        #expect(flow.serverTLS == nil && flow.clientTLS == nil && flow.quic == nil && flow.serverCertificates == nil)
        #expect(flow.clientFingerprints == nil && flow.serverFingerprints == nil)   // migration 15's columns, NULL
        let packets = try await store.packets(forFlow: flow.id, limit: 10)
        #expect(packets.map(\.length) == [99] && packets.first?.capture == CaptureLocation(fileSequence: 4, recordOffset: 24))
        #expect(try inspect(url, "SELECT count(*) FROM plaintext") == 0)
        await store.close()
    }

    @Test func aMigrationThatFailsIsRolledBackAndNamesItsVersion() throws {
        let directory = TemporaryDirectory()
        let url = StoreFixtures.databaseURL(in: directory)
        let old = try FlowStore.openDatabase(at: url, upTo: 1)
        // Someone added a column v2 is about to add: v2's ALTER TABLE fails half-way.
        try old.execute("ALTER TABLE flows ADD COLUMN tls_alert INTEGER")
        old.close()
        #expect(throws: StoreError.self) { try FlowStore(databaseURL: url) }
        do {
            _ = try FlowStore(databaseURL: url)
        } catch {
            guard case let .migrationFailed(version, message) = error else { Issue.record("\(error)"); return }
            #expect(version == 2 && message.contains("duplicate column name: tls_alert"))
        }
        #expect(try inspect(url, "PRAGMA user_version") == 1)
        #expect(try inspect(url, "SELECT count(*) FROM pragma_table_info('flows') WHERE name = 'dns_name'") == 0)
    }

    @Test func anEmptySQLiteDatabaseIsClaimed() async throws {
        let directory = TemporaryDirectory()
        let url = StoreFixtures.databaseURL(in: directory)
        let blank = try SQLiteConnection(path: url.path, mode: .readWriteCreate)
        try blank.execute("VACUUM")   // writes a header and no tables
        blank.close()
        let store = try StoreFixtures.store(in: directory)
        #expect(try await store.flowCount() == 0)
        #expect(try inspect(url, "PRAGMA application_id") == 0x5456_4442)
        await store.close()
    }
}

/// The refusals: each leaves the file byte for byte as it was and creates nothing beside it.
@Suite struct FlowStoreRefusalTests {
    private func expectRefusal(_ expected: StoreError, in directory: TemporaryDirectory) throws {
        let url = StoreFixtures.databaseURL(in: directory)
        let before = try StoreFixtures.bytes(of: url)
        let files = try StoreFixtures.files(in: directory)
        #expect(throws: expected) { try FlowStore(databaseURL: url) }
        #expect(try StoreFixtures.bytes(of: url) == before)
        #expect(try StoreFixtures.files(in: directory) == files)
    }

    @Test func randomBytesAreNotADatabase() throws {
        let directory = TemporaryDirectory()
        let url = StoreFixtures.databaseURL(in: directory)
        var random = SeededRandom(seed: 3)
        try Data((0..<4_096).map { _ in UInt8(truncatingIfNeeded: random.next()) }).write(to: url)
        try expectRefusal(.notADatabase(path: url.path), in: directory)
    }

    @Test func aTextFileIsNotADatabase() throws {
        let directory = TemporaryDirectory()
        let url = StoreFixtures.databaseURL(in: directory)
        try Data("remember to buy milk\n".utf8).write(to: url)
        try expectRefusal(.notADatabase(path: url.path), in: directory)
    }

    @Test("garbage behind SQLite's magic is a damaged history, refused untouched with where to move it")
    func garbageBehindSQLitesHeaderIsDamaged() throws {
        let directory = TemporaryDirectory()
        let url = StoreFixtures.databaseURL(in: directory)
        try Data(DatabaseFile.magic + [UInt8](repeating: 0xA5, count: 4_080)).write(to: url)
        let before = try StoreFixtures.bytes(of: url)
        let error = #expect(throws: StoreError.self) { try FlowStore(databaseURL: url) }
        guard case let .damaged(path, reason, setAside)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(path == url.path && reason == "its header names no valid page size")
        #expect(setAside.hasPrefix(url.path + ".damaged-"))
        #expect(try StoreFixtures.bytes(of: url) == before)
        #expect(try StoreFixtures.files(in: directory) == [url.lastPathComponent])
    }

    @Test(arguments: ["DELETE", "WAL"])
    func anotherProgramsDatabaseIsForeignAndKeepsItsData(journalMode: String) throws {
        let directory = TemporaryDirectory()
        let url = StoreFixtures.databaseURL(in: directory)
        let other = try SQLiteConnection(path: url.path, mode: .readWriteCreate)
        try other.execute("""
            PRAGMA journal_mode = \(journalMode);
            CREATE TABLE recipes (name TEXT); INSERT INTO recipes VALUES ('bread'), ('soup')
            """)
        other.close()
        try expectRefusal(.foreignDatabase(path: url.path), in: directory)
        let check = try SQLiteConnection(path: url.path, mode: .readOnly)
        #expect(try check.integer("SELECT count(*) FROM recipes") == 2)
    }

    @Test func anotherProgramsStampIsForeignEvenWithoutTables() throws {
        let directory = TemporaryDirectory()
        let url = StoreFixtures.databaseURL(in: directory)
        let other = try SQLiteConnection(path: url.path, mode: .readWriteCreate)
        try other.execute("PRAGMA application_id = 1234; VACUUM")
        other.close()
        try expectRefusal(.foreignDatabase(path: url.path), in: directory)
    }

    @Test func aNewerSchemaIsRefusedAndItsRowsKept() async throws {
        let directory = TemporaryDirectory()
        let url = StoreFixtures.databaseURL(in: directory)
        let store = try StoreFixtures.store(in: directory)
        try await store.upsertFlow(StoreFixtures.record(StoreFixtures.key(1)))
        await store.close()
        let newer = try SQLiteConnection(path: url.path, mode: .readWriteCreate)
        try newer.execute("PRAGMA user_version = \(FlowStore.Schema.latestVersion + 1)")
        newer.close()
        try expectRefusal(.newerSchema(found: FlowStore.Schema.latestVersion + 1,
                                       supported: FlowStore.Schema.latestVersion), in: directory)
        let check = try SQLiteConnection(path: url.path, mode: .readOnly)
        #expect(try check.integer("SELECT count(*) FROM flows") == 1)
    }

    @Test func onlyABlankFileOrOursIsAccepted() {
        let ours = Int64(FlowStore.Schema.applicationID), latest = Int64(FlowStore.Schema.latestVersion)
        #expect(FlowStore.refusal(path: "p", applicationID: 0, userVersion: 0, schemaObjects: 0) == nil)
        #expect(FlowStore.refusal(path: "p", applicationID: ours, userVersion: latest, schemaObjects: 9) == nil)
        #expect(FlowStore.refusal(path: "p", applicationID: ours, userVersion: 1, schemaObjects: 9) == nil)
        #expect(FlowStore.refusal(path: "p", applicationID: 0, userVersion: 0, schemaObjects: 1) == .foreignDatabase(path: "p"))
        #expect(FlowStore.refusal(path: "p", applicationID: 0, userVersion: 3, schemaObjects: 0) == .foreignDatabase(path: "p"))
        #expect(FlowStore.refusal(path: "p", applicationID: ours, userVersion: latest + 1, schemaObjects: 9)
                == .newerSchema(found: Int(latest) + 1, supported: Int(latest)))
    }

    @Test func everyErrorReadsAsASentence() {
        let errors: [StoreError] = [
            .notADatabase(path: "/x"), .foreignDatabase(path: "/x"), .newerSchema(found: 9, supported: 3),
            .openFailed(path: "/x", message: "m"), .migrationFailed(version: 2, message: "m"),
            .queryFailed(SQLiteError(code: SQLITE_ERROR, message: "m")), .corruptRow("flow 1: m"), .closed,
            .diskFull(path: "/x", SQLiteError(code: SQLITE_FULL, message: "m")),
            .locked(path: "/x", SQLiteError(code: SQLITE_BUSY, message: "m")),
            .corrupt(path: "/x", SQLiteError(code: SQLITE_CORRUPT, message: "m")),
            .damaged(path: "/x", reason: "m", setAside: "/x.damaged-20261201T000000Z"),
            .notWritable(path: "/x", SQLiteError(code: SQLITE_READONLY, message: "m")),
            .ioFailed(path: "/x", SQLiteError(code: SQLITE_IOERR, message: "m")),
        ]
        #expect(Set(errors.map(\.description)).count == errors.count)
        #expect(StoreError.newerSchema(found: 9, supported: 3).description.contains("schema 9"))
    }
}
