import Foundation

/// An audit session's packets as its evidence capture reads them (audit.md § Capture files of a
/// session): counted per flow and file first, then listed one capture file at a time in the order
/// of its records, so a session of any size is read a file (at most 64 MB of records) at a time.
/// A packet reaches its flow through `packet_runs`, as every read of a flow's packets does.
extension FlowStore {
    /// The session's packets counted per flow and capture file, by flow id then file, the never
    /// captured (nil file) first. A packet without capture is stored at file 0, offset 0: it is
    /// counted as never captured, never in file 0.
    package func packetCounts(inAuditSession sessionID: Int64) throws(AuditStoreError) -> [SessionPacketCount] {
        let rows = try audit { connection throws(SQLiteError) -> Result<[(Int64, Int64?, Int64)], AuditStoreError> in
            guard try sessionRow(sessionID, on: connection) != nil else { return .failure(.sessionNotFound(sessionID)) }
            return .success(try connection.cached("""
                SELECT r.flow_id, CASE WHEN p.pcap_offset > 0 THEN p.pcap_file END AS file, count(*) FROM flows f
                JOIN packet_runs r ON r.flow_id = f.id
                JOIN packets p ON p.id BETWEEN r.first_id AND r.last_id AND p.flow_id = r.flow_id
                WHERE f.audit_session_id = ?1 GROUP BY r.flow_id, file ORDER BY r.flow_id, file
                """) { statement throws(SQLiteError) in
                statement.bind(sessionID, at: 1)
                var rows: [(Int64, Int64?, Int64)] = []
                while try statement.step() { rows.append((statement.int64(at: 0), statement.optionalInt64(at: 1), statement.int64(at: 2))) }
                return rows
            })
        }
        return try rows.map { row throws(AuditStoreError) in
            var sequence: UInt32?
            if let file = row.1 {
                guard let checked = UInt32(exactly: file) else { throw .store(.corruptRow("packets of flow \(row.0): pcap_file \(file)")) }
                sequence = checked
            }
            return SessionPacketCount(flowID: row.0, fileSequence: sequence, packetCount: Int(row.2))
        }
    }

    /// The session's packets whose records are in capture file `fileSequence`, by record offset.
    package func capturedPackets(inAuditSession sessionID: Int64, fileSequence: UInt32) throws(AuditStoreError) -> [SessionCapturedPacket] {
        let rows = try audit { connection throws(SQLiteError) -> Result<[(Int64, Int64, Int64, Int64, Int64, Int64)], AuditStoreError> in
            guard try sessionRow(sessionID, on: connection) != nil else { return .failure(.sessionNotFound(sessionID)) }
            return .success(try connection.cached("""
                SELECT p.id, r.flow_id, p.pcap_offset, p.direction, p.ts, p.length FROM flows f
                JOIN packet_runs r ON r.flow_id = f.id
                JOIN packets p ON p.id BETWEEN r.first_id AND r.last_id AND p.flow_id = r.flow_id
                WHERE f.audit_session_id = ?1 AND p.pcap_file = ?2 AND p.pcap_offset > 0 ORDER BY p.pcap_offset, p.id
                """) { statement throws(SQLiteError) in
                statement.bind(sessionID, at: 1)
                statement.bind(Int64(fileSequence), at: 2)
                var rows: [(Int64, Int64, Int64, Int64, Int64, Int64)] = []
                while try statement.step() {
                    rows.append((statement.int64(at: 0), statement.int64(at: 1), statement.int64(at: 2), statement.int64(at: 3),
                                 statement.int64(at: 4), statement.int64(at: 5)))
                }
                return rows
            })
        }
        return try rows.map { row throws(AuditStoreError) in
            let (id, flowID, offset, direction, instant, length) = row
            guard let direction = UInt8(exactly: direction).flatMap(Direction.init(rawValue:)) else {
                throw .store(.corruptRow("packet \(id): direction \(direction)"))
            }
            guard let length = UInt32(exactly: length) else { throw .store(.corruptRow("packet \(id): length \(length)")) }
            return SessionCapturedPacket(flowID: flowID, recordOffset: UInt64(offset), direction: direction,
                                         date: EpochNanoseconds.date(instant), length: length)
        }
    }
}
