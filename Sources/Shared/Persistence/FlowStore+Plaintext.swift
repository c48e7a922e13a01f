import Foundation

extension FlowStore {
    static let insertPlaintextSQL = """
        INSERT INTO plaintext (flow_id, ts, direction, stream, file_seq, record_offset, stored_length, original_length)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
        """
    static let plaintextOfFlowSQL = """
        SELECT id, flow_id, ts, direction, stream, file_seq, record_offset, stored_length, original_length
        FROM plaintext WHERE flow_id = ?1 ORDER BY ts, id LIMIT ?2
        """

    static let insertRequestSQL = "INSERT INTO http_requests (flow_id, ts, text) VALUES (?1, ?2, ?3)"

    /// Inserts one request's head for flow `flowID` (inside the batch's transaction).
    func insertRequest(_ request: HTTPRequestRecord, flowID: Int64, on connection: SQLiteConnection) throws(SQLiteError) {
        try connection.cached(Self.insertRequestSQL) { insert throws(SQLiteError) in
            insert.bind(flowID, at: 1)
            insert.bind(anchor.nanosecondsSince1970(forUptime: request.timestamp), at: 2)
            insert.bind(request.text, at: 3)
            try insert.step()
            insert.reset()
        }
    }

    /// Inserts one index row for flow `flowID` (inside the batch's transaction).
    func insertPlaintext(_ chunk: PlaintextChunkRecord, flowID: Int64, on connection: SQLiteConnection) throws(SQLiteError) {
        try connection.cached(Self.insertPlaintextSQL) { insert throws(SQLiteError) in
            insert.bind(flowID, at: 1)
            insert.bind(anchor.nanosecondsSince1970(forUptime: chunk.timestamp), at: 2)
            insert.bind(Int64(chunk.direction.rawValue), at: 3)
            insert.bind(Int64(bitPattern: chunk.stream), at: 4)
            insert.bind(Int64(chunk.location.fileSequence), at: 5)
            insert.bind(Int64(clamping: chunk.location.recordOffset), at: 6)
            insert.bind(Int64(chunk.storedLength), at: 7)
            insert.bind(Int64(chunk.originalLength), at: 8)
            try insert.step()
            insert.reset()
        }
    }

    /// Up to `limit` decrypted chunks of flow `flowID` in conversation order (time, then the order
    /// they were written); none for a flow never inspected, or whose content expired.
    package func plaintext(forFlow flowID: Int64, limit: Int) throws(StoreError) -> [StoredPlaintextChunk] {
        let rows = try sqlite { connection throws(SQLiteError) in
            try connection.cached(Self.plaintextOfFlowSQL) { statement throws(SQLiteError) in
                statement.bind(flowID, at: 1)
                statement.bind(Int64(clamping: max(0, limit)), at: 2)
                var rows: [[Int64]] = []
                while try statement.step() { rows.append((0..<9).map { statement.int64(at: Int32($0)) }) }
                return rows
            }
        }
        return try rows.map { row throws(StoreError) in
            guard let direction = UInt8(exactly: row[3]).flatMap(Direction.init(rawValue:)),
                  let sequence = UInt32(exactly: row[5]), let offset = UInt64(exactly: row[6]),
                  let stored = UInt32(exactly: row[7]), let original = UInt32(exactly: row[8]) else {
                throw .corruptRow("plaintext: row \(row[0])")
            }
            return StoredPlaintextChunk(id: row[0], flowID: row[1], timestamp: EpochNanoseconds.date(row[2]),
                                        direction: direction, stream: UInt64(bitPattern: row[4]),
                                        location: PlaintextLocation(fileSequence: sequence, recordOffset: offset),
                                        storedLength: stored, originalLength: original)
        }
    }

    /// Deletes the index rows dated before `cutoff`, row by row (a file may be half expired);
    /// flows and packets stay. Returns how many went.
    @discardableResult
    package func prunePlaintext(before cutoff: Date) throws(StoreError) -> Int {
        let limit = EpochNanoseconds.first(notBefore: cutoff)
        return try sqlite { connection throws(SQLiteError) in
            // The requests' heads are decrypted content too: they go with it.
            try connection.cached("DELETE FROM http_requests WHERE ts < ?1") { statement throws(SQLiteError) in
                statement.bind(limit, at: 1)
                try statement.step()
            }
            return try connection.cached("DELETE FROM plaintext WHERE ts < ?1") { statement throws(SQLiteError) in
                statement.bind(limit, at: 1)
                try statement.step()
                return connection.changes
            }
        }
    }

    /// Deletes every index row; history and capture links stay. Returns how many went.
    @discardableResult
    package func clearPlaintext() throws(StoreError) -> Int {
        try sqlite { connection throws(SQLiteError) in
            try connection.execute("DELETE FROM plaintext")
            let deleted = connection.changes
            try connection.execute("DELETE FROM http_requests")
            return deleted
        }
    }

    /// Deletes the rows of file `sequence` (the file went: the ceiling took it). Returns how many.
    @discardableResult
    package func deletePlaintext(inFile sequence: UInt32) throws(StoreError) -> Int {
        try sqlite { connection throws(SQLiteError) in
            try connection.cached("DELETE FROM plaintext WHERE file_seq = ?1") { statement throws(SQLiteError) in
                statement.bind(Int64(sequence), at: 1)
                try statement.step()
                return connection.changes
            }
        }
    }

    /// The files some index row still points into; every other `.tvpt` file is an orphan.
    package func referencedPlaintextFileSequences() throws(StoreError) -> Set<UInt32> {
        let values = try sqlite { connection throws(SQLiteError) in
            try connection.cached("SELECT DISTINCT file_seq FROM plaintext") { statement throws(SQLiteError) in
                var values: [Int64] = []
                while try statement.step() { values.append(statement.int64(at: 0)) }
                return values
            }
        }
        return try Set(values.map { value throws(StoreError) in
            guard let sequence = UInt32(exactly: value) else { throw .corruptRow("plaintext: file_seq \(value)") }
            return sequence
        })
    }

    /// The writer's first startup question: the highest file sequence the index references.
    package func highestPlaintextFileSequence() throws(StoreError) -> UInt32? {
        let highest = try sqlite { connection throws(SQLiteError) in try connection.integer("SELECT max(file_seq) FROM plaintext") }
        guard let highest else { return nil }
        guard let sequence = UInt32(exactly: highest) else { throw .corruptRow("plaintext: file_seq \(highest)") }
        return sequence
    }

    /// The writer's second: the highest conversation id the index references.
    package func highestPlaintextStream() throws(StoreError) -> UInt64? {
        try sqlite { connection throws(SQLiteError) in try connection.integer("SELECT max(stream) FROM plaintext") }
            .map { UInt64(bitPattern: $0) }
    }

    /// How many index rows there are.
    package func plaintextChunkCount() throws(StoreError) -> Int {
        try sqlite { connection throws(SQLiteError) in Int(try connection.integer("SELECT count(*) FROM plaintext") ?? 0) }
    }
}
