extension FlowStore {
    /// The numbered migrations that build the history's tables. Each runs in its own transaction
    /// together with its `user_version` bump. **Never edit a published migration**: add the next.
    ///
    /// Instants are nanoseconds since 1970; addresses are 4- or 16-byte blobs (the length is the
    /// family); ports, counters and enums are integers holding the models' raw values.
    package enum Schema {
        /// The newest schema this build knows; a file at a higher version is refused, untouched.
        package static let latestVersion = 15

        /// `PRAGMA application_id`: "TVDB". Set when the file is created; a file with tables and
        /// another id belongs to another program.
        static let applicationID: Int32 = 0x5456_4442

        struct Migration: Sendable {
            let version: Int
            let sql: String
        }

        static let migrations: [Migration] = [
            Migration(version: 1, sql: """
                PRAGMA application_id = \(applicationID);
                CREATE TABLE flows (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    session INTEGER NOT NULL,
                    proto INTEGER NOT NULL,
                    addr_a BLOB NOT NULL,
                    port_a INTEGER NOT NULL,
                    addr_b BLOB NOT NULL,
                    port_b INTEGER NOT NULL,
                    first_seen INTEGER NOT NULL,
                    last_seen INTEGER NOT NULL,
                    bytes_out INTEGER NOT NULL DEFAULT 0,
                    bytes_in INTEGER NOT NULL DEFAULT 0,
                    packet_count INTEGER NOT NULL DEFAULT 0,
                    base_bytes_out INTEGER NOT NULL DEFAULT 0,
                    base_bytes_in INTEGER NOT NULL DEFAULT 0,
                    base_packet_count INTEGER NOT NULL DEFAULT 0,
                    lifetime_first_seen INTEGER NOT NULL DEFAULT 0,
                    tls_status INTEGER NOT NULL,
                    sni TEXT
                );
                -- Session last: the same index serves the upsert's conflict target and
                -- flow(matching:), which asks for a tuple's newest session.
                CREATE UNIQUE INDEX flows_session_tuple ON flows(proto, addr_a, port_a, addr_b, port_b, session);
                CREATE INDEX flows_last_seen ON flows(last_seen);
                -- Append-only: no index on flow_id, whose random insertion point would cost more
                -- than the rest of the row (packet_runs says which rows are a flow's), and no
                -- AUTOINCREMENT, which rewrites sqlite_sequence on every insert (a packet is always
                -- reached through its flow, whose ids are never reused).
                CREATE TABLE packets (
                    id INTEGER PRIMARY KEY,
                    flow_id INTEGER NOT NULL,
                    ts INTEGER NOT NULL,
                    direction INTEGER NOT NULL,
                    length INTEGER NOT NULL,
                    tcp_flags INTEGER NOT NULL DEFAULT 0,
                    pcap_file INTEGER NOT NULL DEFAULT 0,
                    -- 0: not captured (no record sits at offset 0), and then pcap_file means nothing.
                    pcap_offset INTEGER NOT NULL DEFAULT 0
                );
                CREATE INDEX packets_ts ON packets(ts);
                -- A flow's packets, one row per run of ids written for it in one batch: the
                -- flow → packets index at one entry per flow and batch instead of per packet.
                -- Deleting a flow cascades to its runs, and each run takes its packets with it.
                CREATE TABLE packet_runs (
                    flow_id INTEGER NOT NULL REFERENCES flows(id) ON DELETE CASCADE,
                    first_id INTEGER NOT NULL,
                    last_id INTEGER NOT NULL,
                    PRIMARY KEY (flow_id, first_id)
                ) WITHOUT ROWID;
                CREATE TRIGGER packet_runs_delete AFTER DELETE ON packet_runs BEGIN
                    DELETE FROM packets WHERE id BETWEEN old.first_id AND old.last_id AND flow_id = old.flow_id;
                END;
                """),
            // What later issues learn about a flow: its names and both sides' TLS facts. Each
            // group of columns is NULL together when nothing is known (persistence.md v7–v14).
            Migration(version: 2, sql: """
                ALTER TABLE flows ADD COLUMN dns_name TEXT;
                ALTER TABLE flows ADD COLUMN dns_other_names TEXT;
                ALTER TABLE flows ADD COLUMN tls_version INTEGER;
                ALTER TABLE flows ADD COLUMN tls_cipher_suite INTEGER;
                ALTER TABLE flows ADD COLUMN tls_hello_retry INTEGER;
                ALTER TABLE flows ADD COLUMN tls_alert INTEGER;
                ALTER TABLE flows ADD COLUMN tls_upstream INTEGER;
                ALTER TABLE flows ADD COLUMN tls_offered_versions TEXT;
                ALTER TABLE flows ADD COLUMN tls_offered_legacy INTEGER;
                ALTER TABLE flows ADD COLUMN tls_offered_alpn TEXT;
                ALTER TABLE flows ADD COLUMN tls_offered_alpn_omitted INTEGER;
                ALTER TABLE flows ADD COLUMN tls_offered_ech INTEGER;
                ALTER TABLE flows ADD COLUMN quic_version INTEGER;
                ALTER TABLE flows ADD COLUMN quic_from_server INTEGER;
                ALTER TABLE flows ADD COLUMN tls_chain_state INTEGER;
                ALTER TABLE flows ADD COLUMN tls_chain TEXT;
                ALTER TABLE flows ADD COLUMN stream_opening TEXT;
                """),
            // The decrypted-content index (the table only; its API comes with plaintext storage).
            Migration(version: 3, sql: """
                CREATE TABLE plaintext (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    flow_id INTEGER NOT NULL REFERENCES flows(id) ON DELETE CASCADE,
                    ts INTEGER NOT NULL,
                    direction INTEGER NOT NULL,
                    stream INTEGER NOT NULL,
                    file_seq INTEGER NOT NULL,
                    record_offset INTEGER NOT NULL,
                    stored_length INTEGER NOT NULL,
                    original_length INTEGER NOT NULL
                );
                CREATE INDEX plaintext_flow_id ON plaintext(flow_id, ts);
                CREATE INDEX plaintext_ts ON plaintext(ts);
                """),
            // The history's sessions: one row per store that wrote (a `run`, a `demo`, an analysed
            // capture), and `flows.session` becomes its id, so "the flows of this run" is asked of
            // the store, not guessed from instants. Until now `flows.session` held the writing
            // store's open instant: each distinct one becomes a session that started then and
            // ended at its last flow's last sighting. The detour through negative values keeps a
            // tuple seen in two sessions from colliding in the unique index half-way.
            Migration(version: 4, sql: """
                CREATE TABLE sessions (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    started INTEGER NOT NULL,
                    -- NULL while the session writes, and for good when its process died first.
                    ended INTEGER,
                    origin TEXT NOT NULL
                );
                INSERT INTO sessions (started, ended, origin)
                    SELECT session, max(last_seen), '\(legacyOrigin)' FROM flows GROUP BY session ORDER BY session;
                CREATE INDEX sessions_started ON sessions(started);
                UPDATE flows SET session = -session;
                UPDATE flows SET session = (SELECT id FROM sessions WHERE started = -flows.session);
                DROP INDEX sessions_started;
                -- A session's flows in id order: (session, rowid), which an upsert's new last_seen
                -- leaves alone, unlike an index on last_seen.
                CREATE INDEX flows_session ON flows(session);
                """),
            // Each lifetime of a tuple is its own row: a connection that reuses a closed one's
            // ports (the kernel reuses source ports) is a new flow, not folded into the old row.
            // Rows of older files stay as they were folded; the prefix still serves flow(matching:).
            Migration(version: 5, sql: """
                DROP INDEX flows_session_tuple;
                CREATE UNIQUE INDEX flows_session_lifetime
                    ON flows(proto, addr_a, port_a, addr_b, port_b, session, lifetime_first_seen);
                """),
            // Packet counts per second, minute and hour (`ActivityGrain`), kept by every write,
            // prune and clear in the same transaction, so an activity axis sums a few thousand
            // slots instead of counting every packet of its stretch. An older history's counts
            // are made here from its packets.
            Migration(version: 6, sql: """
                CREATE TABLE activity_seconds (slot INTEGER PRIMARY KEY, packets INTEGER NOT NULL);
                CREATE TABLE activity_minutes (slot INTEGER PRIMARY KEY, packets INTEGER NOT NULL);
                CREATE TABLE activity_hours (slot INTEGER PRIMARY KEY, packets INTEGER NOT NULL);
                INSERT INTO activity_seconds (slot, packets)
                    SELECT \(ActivityGrain.secondSQL(of: "ts")) AS s, count(*) FROM packets GROUP BY s;
                INSERT INTO activity_minutes (slot, packets)
                    SELECT \(ActivityGrain.floorDivideSQL("slot", 60)) AS m, sum(packets) FROM activity_seconds GROUP BY m;
                INSERT INTO activity_hours (slot, packets)
                    SELECT \(ActivityGrain.floorDivideSQL("slot", 60)) AS h, sum(packets) FROM activity_minutes GROUP BY h;
                """),
            // Why an inspection attempt failed a flow closed (the upstream's certificate, say).
            Migration(version: 7, sql: """
                ALTER TABLE flows ADD COLUMN inspection_failure TEXT;
                """),
            // Why a flow was not inspected, typed (`InspectionReasonKind`), with inspection_failure
            // as its detail; what the app and the tunnel's leaf negotiated; how the real server
            // ended an inspected flow. A failure recorded before the kinds existed broke its flow
            // (inspection then failed closed), so it becomes the status and kind that say so.
            Migration(version: 8, sql: """
                ALTER TABLE flows ADD COLUMN inspection_reason TEXT;
                ALTER TABLE flows ADD COLUMN tls_leaf_version INTEGER;
                ALTER TABLE flows ADD COLUMN tls_leaf_cipher_suite INTEGER;
                ALTER TABLE flows ADD COLUMN tls_server_ending INTEGER;
                UPDATE flows SET inspection_reason = '\(InspectionReasonKind.upstreamFailed.rawValue)',
                    tls_status = \(TLSInspectionStatus.inspectionFailed.rawValue)
                    WHERE inspection_failure IS NOT NULL;
                """),
            // The program whose socket a flow is (`ProgramAttribution`), asked when it opened.
            Migration(version: 9, sql: """
                ALTER TABLE flows ADD COLUMN program_state TEXT;
                ALTER TABLE flows ADD COLUMN program_pid INTEGER;
                ALTER TABLE flows ADD COLUMN program_command TEXT;
                ALTER TABLE flows ADD COLUMN program_executable TEXT;
                ALTER TABLE flows ADD COLUMN program_uid INTEGER;
                ALTER TABLE flows ADD COLUMN program_user TEXT;
                ALTER TABLE flows ADD COLUMN program_detail TEXT;
                """),
            // Which end is the machine's, when the recorder knew (`FlowRecord.localEnd`).
            Migration(version: 10, sql: """
                ALTER TABLE flows ADD COLUMN local_end INTEGER;
                """),
            // The Timeline's sortable columns: one index per order (`FlowOrder`), on the very
            // expression the list sorts by — SQLite uses an expression index only for the same
            // expression — so the first page in any order reads a page of entries instead of
            // sorting the whole history. Measured at 1 M flows (tvlab's history fill): a first
            // page's query 0.12–1.9 s without (the counters' ties are the slowest) → under 1 ms;
            // in Chromium a header's click to 100 rows 166–1341 ms → 41–79 ms. The price: that
            // fill's 1 M new rows 41–49 s → 127 s, the file 309 → 434 MB; the tunnel's packet
            // path (`tvlab bench store`: upserts into few rows) unchanged within its noise.
            // Made here in ~4 s for 1 M flows. Time already has flows_last_seen.
            Migration(version: 11, sql: sortIndexesOfVersion11.map { "CREATE INDEX \($0.name) ON flows(\($0.expression));" }
                .joined(separator: "\n")),
            // Inspected requests' heads, for the search's `http:` terms (`HTTPRequestHeads`):
            // decrypted content, so dated and pruned with the decrypted content's index.
            Migration(version: 12, sql: """
                CREATE TABLE http_requests (
                    id INTEGER PRIMARY KEY,
                    flow_id INTEGER NOT NULL REFERENCES flows(id) ON DELETE CASCADE,
                    ts INTEGER NOT NULL,
                    text TEXT NOT NULL
                );
                CREATE INDEX http_requests_flow_id ON http_requests(flow_id);
                CREATE INDEX http_requests_ts ON http_requests(ts);
                """),
            // Audit evidence (audit.md § Schema v6, the original's numbering): projects with their
            // allowlists, the sessions a person records with their markers, and each flow's audit
            // session. The partial unique index lets at most one session be open whatever process
            // starts it. Kinds are integers mapped by `AuditSerialization`. A flow's tag is set by
            // its upsert (`FlowRow.auditTagSQL`); its index is partial, so the history's untagged
            // flows (nearly all) cost no entry.
            Migration(version: 13, sql: """
                CREATE TABLE audit_projects (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL,
                    bundle_id TEXT,
                    catalogue_version TEXT,
                    created_at INTEGER NOT NULL
                );
                CREATE TABLE audit_allowlist (
                    id INTEGER PRIMARY KEY,
                    project_id INTEGER NOT NULL REFERENCES audit_projects(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    pattern TEXT NOT NULL,
                    note TEXT,
                    UNIQUE (project_id, pattern)
                );
                CREATE TABLE audit_sessions (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    project_id INTEGER NOT NULL REFERENCES audit_projects(id) ON DELETE CASCADE,
                    kind INTEGER NOT NULL,
                    app_version TEXT,
                    build_number TEXT,
                    device_model TEXT NOT NULL,
                    os_version TEXT NOT NULL,
                    tool_version TEXT NOT NULL,
                    inspection_enabled INTEGER NOT NULL,
                    ca_trusted INTEGER NOT NULL,
                    started_at INTEGER NOT NULL,
                    ended_at INTEGER,
                    notes TEXT NOT NULL DEFAULT ''
                );
                CREATE UNIQUE INDEX audit_sessions_single_open ON audit_sessions((ended_at IS NULL)) WHERE ended_at IS NULL;
                CREATE INDEX audit_sessions_project ON audit_sessions(project_id, started_at);
                CREATE INDEX audit_sessions_started ON audit_sessions(started_at);
                CREATE TABLE audit_markers (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    session_id INTEGER NOT NULL REFERENCES audit_sessions(id) ON DELETE CASCADE,
                    ts INTEGER NOT NULL,
                    kind INTEGER NOT NULL,
                    label TEXT
                );
                CREATE INDEX audit_markers_session ON audit_markers(session_id, ts);
                ALTER TABLE flows ADD COLUMN audit_session_id INTEGER REFERENCES audit_sessions(id) ON DELETE SET NULL;
                CREATE INDEX flows_audit_session ON flows(audit_session_id, first_seen) WHERE audit_session_id IS NOT NULL;
                """),
            // Where a proxy request opening a flow asked to be taken (`FlowRecord.proxyTarget`) and
            // its name; what a DNS flow asked and how it was answered (`FlowRecord.dnsExchange`);
            // a server_name that is no host name, kept as sent. The host order reads the proxy's
            // name and the DNS question between the SNI and DNS, as the flow's name does: that
            // order's index is remade on the new expression (~0.5 s at 1 M flows).
            Migration(version: 14, sql: """
                ALTER TABLE flows ADD COLUMN proxy_protocol TEXT;
                ALTER TABLE flows ADD COLUMN proxy_host TEXT;
                ALTER TABLE flows ADD COLUMN proxy_port INTEGER;
                ALTER TABLE flows ADD COLUMN proxy_name TEXT;
                ALTER TABLE flows ADD COLUMN tls_offered_sni_sent TEXT;
                ALTER TABLE flows ADD COLUMN dns_query TEXT;
                ALTER TABLE flows ADD COLUMN dns_query_type INTEGER;
                ALTER TABLE flows ADD COLUMN dns_reply_code INTEGER;
                ALTER TABLE flows ADD COLUMN dns_reply_count INTEGER;
                ALTER TABLE flows ADD COLUMN dns_reply_answers TEXT;
                DROP INDEX IF EXISTS flows_by_host;
                CREATE INDEX flows_by_host ON flows(\(FlowOrder.expression(.host)));
                """),
            // The hellos' fingerprints: JA4 and JA3 (string and MD5) of the ClientHello in the
            // offer's group, JA3S of a cleartext ServerHello in the answer's. No index: the search
            // tests them on the rows it reads anyway (`FlowQuery.matches`).
            Migration(version: 15, sql: """
                ALTER TABLE flows ADD COLUMN tls_ja4 TEXT;
                ALTER TABLE flows ADD COLUMN tls_ja3_full TEXT;
                ALTER TABLE flows ADD COLUMN tls_ja3 TEXT;
                ALTER TABLE flows ADD COLUMN tls_ja3s_full TEXT;
                ALTER TABLE flows ADD COLUMN tls_ja3s TEXT;
                """),
        ]

        /// The index of each order but time's: `flows_by_KEY` on `FlowOrder.expression(KEY)`. An
        /// expression changed later needs a migration that drops and remakes its index.
        static let sortIndexes: [(name: String, expression: String)] = FlowOrder.Key.allCases.filter { $0 != .time }.map {
            ("flows_by_\($0.rawValue)", FlowOrder.expression($0))
        }

        /// Migration 11's indexes as it made them: the host order's expression has changed since
        /// (migration 14 remakes that index), and a published migration never changes.
        static let sortIndexesOfVersion11: [(name: String, expression: String)] = sortIndexes.map { index in
            index.name == "flows_by_host"
                ? (index.name, "coalesce(nullif(sni, ''), nullif(dns_name, ''), \(FlowOrder.remote("addr")))") : index
        }

        /// What started a session recorded before sessions were kept (migration 4).
        package static let legacyOrigin = "recorded before sessions were kept"

        /// Brings the file up to `target`, one migration a transaction. Re-reads `user_version`
        /// inside each transaction, so two processes opening a new file at once migrate it once.
        /// Takes the write lock only when a migration is due: a history already at `target` is
        /// opened with reads alone, so opening it while a tunnel writes (the web app, `audit`,
        /// `flows`) never waits for the writer's lock. A lock still held past the busy timeout is
        /// `locked`, which the person can act on, not a failed migration.
        static func migrate(_ connection: SQLiteConnection, upTo target: Int, path: String) throws(StoreError) {
            let current: Int64
            do { current = try connection.integer("PRAGMA user_version") ?? 0 } catch { throw StoreError(error, path: path) }
            for migration in migrations where Int64(migration.version) > current && migration.version <= target {
                do {
                    try connection.transaction { () throws(SQLiteError) in
                        // Another opener may have migrated since the version was read.
                        guard try connection.integer("PRAGMA user_version") ?? 0 < Int64(migration.version) else { return }
                        try connection.execute(migration.sql)
                        try connection.execute("PRAGMA user_version = \(migration.version)")
                    }
                } catch {
                    if error.isLock { throw StoreError(error, path: path) }
                    throw .migrationFailed(version: migration.version, message: error.description)
                }
            }
        }
    }
}
