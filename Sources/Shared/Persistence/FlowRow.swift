/// A `flows` row as SQLite holds it: every column as stored, even nonsense. `StoredFlow(row:)` is
/// the checked value made from it; `FlowRow(record:…)` is what an upsert writes.
struct FlowRow {
    var id: Int64 = 0
    /// The `sessions` row it belongs to.
    var session: Int64 = 0
    var key: FlowKeyColumns
    /// Nanoseconds since 1970.
    var firstSeen: Int64
    var lastSeen: Int64
    var bytesOut: Int64
    var bytesIn: Int64
    var packetCount: Int64
    var tlsStatus: Int64
    var facts = FlowFactValues()
    /// The audit session it is evidence of; set by the upsert itself (`auditTagSQL`), never bound.
    var auditSession: Int64?

    /// The `flows` columns a read selects. The `base_*` counters and `lifetime_first_seen` are the
    /// upsert's own bookkeeping and are never read out.
    enum Column: Hashable {
        case id, session
        case key(FlowKeyColumns.Column)
        case firstSeen, lastSeen, bytesOut, bytesIn, packetCount, tlsStatus
        case fact(FlowFactColumn)
        case auditSession

        var name: String {
            switch self {
            case .id: "id"
            case .session: "session"
            case let .key(column): column.rawValue
            case .firstSeen: "first_seen"
            case .lastSeen: "last_seen"
            case .bytesOut: "bytes_out"
            case .bytesIn: "bytes_in"
            case .packetCount: "packet_count"
            case .tlsStatus: "tls_status"
            case let .fact(column): column.rawValue
            case .auditSession: "audit_session_id"
            }
        }
    }

    /// What `init(reading:)` reads: `SELECT \(FlowRow.selected.sql) FROM flows`.
    static let selected = ResultColumns<Column>(
        [.id, .session] + FlowKeyColumns.Column.allCases.map(Column.key)
            + [.firstSeen, .lastSeen, .bytesOut, .bytesIn, .packetCount, .tlsStatus]
            + FlowFactColumn.allCases.map(Column.fact) + [.auditSession],
        expression: \.name)

    init(reading statement: SQLiteStatement) {
        let row = ResultRow(statement: statement, columns: Self.selected)
        id = row.int64(.id)
        session = row.int64(.session)
        key = FlowKeyColumns(reading: row, Column.key)
        firstSeen = row.int64(.firstSeen)
        lastSeen = row.int64(.lastSeen)
        bytesOut = row.int64(.bytesOut)
        bytesIn = row.int64(.bytesIn)
        packetCount = row.int64(.packetCount)
        tlsStatus = row.int64(.tlsStatus)
        facts = FlowFactValues(reading: row, Column.fact)
        auditSession = row.optionalInt64(.auditSession)
    }

    /// What an upsert writes for `record`, its stamps dated with `anchor`.
    init(record: FlowRecord, anchor: MonotonicAnchor) {
        key = FlowKeyColumns(record.key)
        firstSeen = anchor.nanosecondsSince1970(forUptime: record.firstSeen)
        lastSeen = anchor.nanosecondsSince1970(forUptime: record.lastSeen)
        bytesOut = Int64(clamping: record.bytesOut)
        bytesIn = Int64(clamping: record.bytesIn)
        packetCount = Int64(clamping: record.packetCount)
        tlsStatus = Int64(record.tlsStatus.rawValue)
        facts = FlowFactValues(record)
    }
}

extension FlowRow {
    /// The columns an upsert writes, in parameter order (`?1` is the session).
    private static let written = ["session"] + FlowKeyColumns.names()
        + ["first_seen", "last_seen", "bytes_out", "bytes_in", "packet_count", "tls_status", "lifetime_first_seen"]
        + FlowFactColumn.allCases.map(\.rawValue)

    /// Folds a record into its existing row. The record is its lifetime's aggregate, so the row's
    /// totals are `base + record`. A record whose first sighting differs from the row's
    /// `lifetime_first_seen` is a new lifetime of the tuple (the flow table dropped it and it came
    /// back): the row's totals so far become the base. `first_seen` keeps the earliest,
    /// `last_seen` the latest; the TLS status is the record's; a fact group the record does not
    /// know is left as stored (`facts: false` leaves them all, for a record that knows none).
    /// `new(column)` is the SQL for the record's value of a column; every `flows.` column is the
    /// row's value before the update.
    private static func fold(facts: Bool = true, _ new: (String) -> String) -> String {
        let newLifetime = "\(new("lifetime_first_seen")) <> flows.lifetime_first_seen"
        func base(_ counter: String) -> String {
            "CASE WHEN \(newLifetime) THEN flows.\(counter) ELSE flows.base_\(counter) END"
        }
        let counters = ["bytes_out", "bytes_in", "packet_count"]
        var assignments = counters.map { "base_\($0) = \(base($0))" }
            + counters.map { "\($0) = \(base($0)) + \(new($0))" }
        assignments += [
            "lifetime_first_seen = \(new("lifetime_first_seen"))",
            "first_seen = min(flows.first_seen, \(new("first_seen")))",
            "last_seen = max(flows.last_seen, \(new("last_seen")))",
            "tls_status = \(new("tls_status"))",
            // audit.md's tagging rules 2 and 3: an untagged flow seen during the open session is
            // tagged now; a tagged one keeps its session.
            "audit_session_id = coalesce(flows.audit_session_id, \(auditTagSQL(firstSeen: new("first_seen"), lastSeen: new("last_seen"), now: nowParameter)))",
        ]
        for group in FlowFactColumn.groups where facts {
            let known = group.presence.map { "\(new($0.rawValue)) IS NOT NULL" }.joined(separator: " OR ")
            assignments += group.columns.map {
                "\($0.rawValue) = CASE WHEN \(known) THEN \(new($0.rawValue)) ELSE flows.\($0.rawValue) END"
            }
        }
        return assignments.joined(separator: ",\n")
    }

    /// The audit session a write tags its flow with (audit.md § Which session a flow belongs to),
    /// read in the statement that writes the flow, so a session another process starts or ends is
    /// seen at once: the session the flow's traffic (`firstSeen`…`lastSeen`) went during — the
    /// open one, or one that ended after its first packet, if `now` (the writer's clock) is within
    /// `auditLateWriteGrace` of that end: the tunnel writes what it saw a moment later (every
    /// 250 ms, longer under load), and `audit end` around a running service must not lose the
    /// last of it. NULL when the traffic all came before the session (a flow written again only
    /// for a late fact: rule 4), or when it is written long after (an analysed old capture).
    static func auditTagSQL(firstSeen: String, lastSeen: String, now: String) -> String {
        """
        (SELECT id FROM audit_sessions WHERE started_at <= \(lastSeen) AND (ended_at IS NULL OR \
        (ended_at >= \(firstSeen) AND \(now) <= ended_at + \(auditLateWriteGrace))) ORDER BY started_at DESC LIMIT 1)
        """
    }

    /// How long after its end a session still takes the writes of traffic seen before it (ns).
    static let auditLateWriteGrace: Int64 = 10_000_000_000

    /// The writer's clock (ns since 1970): `?N` after the update's id, so the upsert and the
    /// update share its position (an upsert leaves the id's unbound).
    static let nowParameter = "?\(written.count + 2)"

    /// Inserts the row for this session, or folds the record into the session's row for the same
    /// tuple and lifetime; returns the row's id either way. Each lifetime is its own row (schema
    /// 5): a port reused by a new connection is a new flow in the history.
    static let upsertSQL = """
        INSERT INTO flows (\(written.joined(separator: ", ")), audit_session_id)
        VALUES (\((1...written.count).map { "?\($0)" }.joined(separator: ", ")), \(auditTagSQL(firstSeen: "?\(written.firstIndex(of: "first_seen")! + 1)",
                                                                                         lastSeen: "?\(written.firstIndex(of: "last_seen")! + 1)", now: nowParameter)))
        ON CONFLICT (proto, addr_a, port_a, addr_b, port_b, session, lifetime_first_seen) DO UPDATE SET
        \(fold { "excluded.\($0)" })
        RETURNING id
        """

    /// Folds the record into the row whose id is the last parameter: what `upsertSQL` does to a
    /// row known to exist, without the failed insert and the unique-index probe. Changes nothing
    /// (and `changes` says 0) unless that row is still this session's row for the tuple and the
    /// record's lifetime.
    /// `updateCountersSQL` is the same for a record that knows no facts, the common case.
    static let updateSQL = update(facts: true)
    static let updateCountersSQL = update(facts: false)

    private static func update(facts: Bool) -> String {
        """
        UPDATE flows SET
        \(fold(facts: facts) { "?\(written.firstIndex(of: $0)! + 1)" })
        WHERE id = ?\(written.count + 1) AND session = ?1 AND \(FlowKeyColumns.matching(from: 2))
        AND lifetime_first_seen = ?\(written.firstIndex(of: "lifetime_first_seen")! + 1)
        """
    }

    /// Binds `upsertSQL`'s parameters, and `updateSQL`'s but for the id. The record's first
    /// sighting is its lifetime's identity.
    func bindUpsert(to statement: SQLiteStatement, session: Int64, now: Int64) {
        statement.bind(now, at: Int32(Self.written.count + 2))
        statement.bind(session, at: 1)
        key.bind(to: statement, from: 2)
        statement.bind(firstSeen, at: 7)
        statement.bind(lastSeen, at: 8)
        statement.bind(bytesOut, at: 9)
        statement.bind(bytesIn, at: 10)
        statement.bind(packetCount, at: 11)
        statement.bind(tlsStatus, at: 12)
        statement.bind(firstSeen, at: 13)
        facts.bind(to: statement, from: 14)
    }

    /// Binds all of `updateSQL`'s parameters.
    func bindUpdate(to statement: SQLiteStatement, session: Int64, id: Int64, now: Int64) {
        bindUpsert(to: statement, session: session, now: now)
        statement.bind(id, at: Int32(Self.written.count + 1))
    }
}
