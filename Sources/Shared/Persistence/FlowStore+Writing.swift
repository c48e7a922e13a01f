import CSQLite

extension FlowStore {
    /// `INSERT INTO packets`: one bind of seven values, a step and a reset per packet.
    static let insertPacketSQL = """
        INSERT INTO packets (flow_id, ts, direction, length, tcp_flags, pcap_file, pcap_offset)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
        """
    static let insertRunSQL = "INSERT INTO packet_runs (flow_id, first_id, last_id) VALUES (?1, ?2, ?3)"
    static let sessionFlowIDSQL = """
        SELECT id FROM flows WHERE \(FlowKeyColumns.matching(from: 1)) AND session = ?6
        ORDER BY lifetime_first_seen DESC LIMIT 1
        """

    /// Writes `record` into its row for this session and returns the row's id. The record is the
    /// flow's lifetime aggregate: the row's totals become earlier lifetimes' totals plus the
    /// record's; the facts the record knows replace the stored ones, and a nil fact erases nothing.
    @discardableResult
    package func upsertFlow(_ record: FlowRecord) throws(StoreError) -> Int64 {
        let row = FlowRow(record: record, anchor: anchor)
        return try sqlite { connection throws(SQLiteError) in
            try upsert(row, key: record.key, session: try recordingSession(on: connection), on: connection)
        }
    }

    /// Appends `packets` to flow `flowID` in one transaction, dating their stamps with the anchor.
    /// Fails, writing nothing, when there is no such flow.
    package func appendPackets(_ packets: [PacketMeta], flowID: Int64) throws(StoreError) {
        let runs = PacketRuns(flowIDs: Array(repeating: flowID, count: packets.count))
        try sqlite { connection throws(SQLiteError) in
            try connection.transaction { () throws(SQLiteError) in try append(packets, in: runs, on: connection) }
        }
    }

    /// Upserts the batch's flows and appends its packets in one transaction: all of it is written,
    /// or none. A packet whose flow is neither in the batch nor stored in this session is counted
    /// in the outcome, not written.
    @discardableResult
    package func write(_ batch: FlowStoreBatch) throws(StoreError) -> FlowStoreBatch.Outcome {
        let rows = batch.flows.map { FlowRow(record: $0, anchor: anchor) }
        return try sqlite { connection throws(SQLiteError) in
            let session = try recordingSession(on: connection)
            return try connection.transaction { () throws(SQLiteError) in
                var flowIDs: [Int64] = []
                flowIDs.reserveCapacity(rows.count)
                var known: [FlowKey: Int64?] = Dictionary(minimumCapacity: rows.count)
                // A tuple with two lifetimes in the batch (its port reused by a new connection):
                // each of its packets goes to the latest lifetime begun by the packet's instant.
                var latest: [FlowKey: (firstSeen: UInt64, id: Int64)] = Dictionary(minimumCapacity: rows.count)
                var lifetimes: [FlowKey: [(firstSeen: UInt64, id: Int64)]] = [:]
                for (record, row) in zip(batch.flows, rows) {
                    let id = try upsert(row, key: record.key, session: session, on: connection)
                    flowIDs.append(id)
                    known[record.key] = id
                    if let earlier = latest[record.key], earlier.id != id {
                        lifetimes[record.key, default: [earlier]].append((record.firstSeen, id))
                    }
                    latest[record.key] = (record.firstSeen, id)
                }
                // Packets come in runs of one flow: the previous match is checked before hashing.
                var packetFlows: [Int64?] = []
                packetFlows.reserveCapacity(batch.packets.count)
                var previous: (key: FlowKey, id: Int64?)?
                for packet in batch.packets {
                    let key = packet.flowKey
                    if let spans = lifetimes[key] {
                        packetFlows.append((spans.last { $0.firstSeen <= packet.timestamp } ?? spans[0]).id)
                        previous = nil
                        continue
                    }
                    if let previous, previous.key == key {
                        packetFlows.append(previous.id)
                        continue
                    }
                    let id: Int64?
                    if let match = known[key] {
                        id = match
                    } else {
                        id = try sessionFlowID(key, session: session, on: connection)
                        known[key] = id
                    }
                    packetFlows.append(id)
                    previous = (key, id)
                }
                let runs = PacketRuns(flowIDs: packetFlows)
                try append(batch.packets, in: runs, on: connection)
                var outcome = FlowStoreBatch.Outcome(flowIDs: flowIDs, packetsWritten: runs.order.count,
                                                     orphanedPackets: batch.packets.count - runs.order.count)
                // Decrypted chunks and requests' heads go to the lifetime begun by their instant.
                func flowID(_ key: FlowKey, at timestamp: UInt64) throws(SQLiteError) -> Int64? {
                    if let spans = lifetimes[key] { return (spans.last { $0.firstSeen <= timestamp } ?? spans[0]).id }
                    if let match = known[key] { return match }
                    let id = try sessionFlowID(key, session: session, on: connection)
                    known[key] = id
                    return id
                }
                for chunk in batch.plaintext {
                    guard let id = try flowID(chunk.flowKey, at: chunk.timestamp) else { outcome.orphanedPlaintext += 1; continue }
                    try insertPlaintext(chunk, flowID: id, on: connection)
                    outcome.plaintextWritten += 1
                }
                for request in batch.requests {
                    guard let id = try flowID(request.flowKey, at: request.timestamp) else { outcome.orphanedRequests += 1; continue }
                    try insertRequest(request, flowID: id, on: connection)
                    outcome.requestsWritten += 1
                }
                return outcome
            }
        }
    }

    private func upsert(_ row: FlowRow, key: FlowKey, session: Int64, on connection: SQLiteConnection) throws(SQLiteError) -> Int64 {
        if let id = sessionFlowIDs[key] {
            let sql = row.facts.isEmpty ? FlowRow.updateCountersSQL : FlowRow.updateSQL
            let updated = try connection.cached(sql) { update throws(SQLiteError) in
                row.bindUpdate(to: update, session: session, id: id, now: writerClock())
                try update.step()
                return connection.changes
            }
            if updated == 1 { return id }
        }
        let id = try connection.cached(FlowRow.upsertSQL) { upsert throws(SQLiteError) in
            row.bindUpsert(to: upsert, session: session, now: writerClock())
            guard try upsert.step() else { throw SQLiteError(code: SQLITE_ERROR, message: "the flow upsert returned no id") }
            return upsert.int64(at: 0)
        }
        if sessionFlowIDs.count >= Self.flowIDCacheLimit { sessionFlowIDs.removeAll(keepingCapacity: true) }
        sessionFlowIDs[key] = id
        return id
    }

    private func sessionFlowID(_ key: FlowKey, session: Int64, on connection: SQLiteConnection) throws(SQLiteError) -> Int64? {
        try connection.cached(Self.sessionFlowIDSQL) { lookup throws(SQLiteError) in
            FlowKeyColumns(key).bind(to: lookup, from: 1)
            lookup.bind(session, at: 6)
            return try lookup.step() ? lookup.int64(at: 0) : nil
        }
    }

    /// Inserts the packets run by run (consecutive ids for each flow) and one `packet_runs` row per
    /// run, and adds them to the kept activity counts. The run row's foreign key is what refuses a
    /// flow id that does not exist.
    private func append(_ packets: [PacketMeta], in runs: PacketRuns, on connection: SQLiteConnection) throws(SQLiteError) {
        // A batch spans a second or two: a handful of keys, however many packets.
        var perSecond: [Int64: Int64] = [:]
        try connection.cached(Self.insertPacketSQL) { insert throws(SQLiteError) in
            try connection.cached(Self.insertRunSQL) { insertRun throws(SQLiteError) in
                for run in runs.runs {
                    var first: Int64?
                    for index in runs.order[run.members] {
                        let instant = try append(packets[index], flowID: run.flowID, with: insert)
                        perSecond[ActivityGrain.second(ofNanoseconds: instant), default: 0] += 1
                        if first == nil { first = connection.lastInsertRowID }
                    }
                    insertRun.bind(run.flowID, at: 1)
                    insertRun.bind(first ?? 0, at: 2)
                    insertRun.bind(connection.lastInsertRowID, at: 3)
                    try insertRun.step()
                    insertRun.reset()
                }
            }
        }
        try addActivity(perSecond, on: connection)
    }

    /// Inserts one packet and returns the instant it was stored at (ns since 1970).
    private func append(_ packet: PacketMeta, flowID: Int64, with insert: SQLiteStatement) throws(SQLiteError) -> Int64 {
        let instant = anchor.nanosecondsSince1970(forUptime: packet.timestamp)
        insert.bind(flowID, at: 1)
        insert.bind(instant, at: 2)
        insert.bind(Int64(packet.direction.rawValue), at: 3)
        insert.bind(Int64(packet.length), at: 4)
        insert.bind(Int64(packet.tcpFlags.rawValue), at: 5)
        insert.bind(Int64(packet.capture?.fileSequence ?? 0), at: 6)
        insert.bind(Int64(clamping: packet.capture?.recordOffset ?? 0), at: 7)
        try insert.step()
        insert.reset()
        return instant
    }
}
