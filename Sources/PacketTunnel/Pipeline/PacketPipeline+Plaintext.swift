import Foundation
import Shared

extension PacketPipeline {
    /// One decrypted chunk of flow `key` (the relay's hookup, on the loop's thread, in
    /// conversation order, only while the session keeps decrypted content). The flow must still
    /// be in the table: a chunk whose flow is gone is refused and counted before anything touches
    /// disk. The flow's conversation is opened on its first chunk; its budget decides which bytes
    /// are kept (each turn's and each HTTP/2 stream's beginning) and places the rest as gaps; the
    /// index rows wait for the next flush, where the flow's row id exists. The file's records are
    /// dated absolutely and the rows monotonically, from the one anchor the store also dates with.
    ///
    /// A write failure (a full disk) stops keeping decrypted content for the session and says so
    /// once (`recordingStopped`); the tunnel goes on. Returns where the chunk's first record
    /// landed, nil when nothing was written.
    @discardableResult
    package func observe(plaintext: Data, direction: Direction, for key: FlowKey, now: UInt64) -> PlaintextLocation? {
        guard let sink = plaintextSink, var stats = counters.plaintext, !stats.plaintextDisabledByFailure else { return nil }
        lastNow = max(lastNow, now)
        guard let flow = flowTable.record(for: key) else {
            stats.plaintextChunksRefused &+= 1
            counters.plaintext = stats
            return nil
        }
        var conversation: PlaintextConversation
        if let known = plaintextConversations[key], known.firstSeen == flow.firstSeen {
            conversation = known
        } else {
            conversation = PlaintextConversation(stream: sink.openStream(), firstSeen: flow.firstSeen,
                                                 budget: PlaintextBudget(limits: config.plaintextLimits))
        }
        let (records, dropped) = conversation.budget.admit(plaintext, direction: direction)
        // A gap holds bytes of this direction's earlier chunks: dated with the last of them, it
        // stays in its place among the other direction's records.
        let gapTime = conversation.lastChunk[Int(direction.rawValue)] ?? now
        conversation.lastChunk[Int(direction.rawValue)] = now
        for text in conversation.requests.feed(plaintext, direction: direction) {
            batch.requests.append(HTTPRequestRecord(flowKey: key, timestamp: now, text: text))
        }
        plaintextConversations[key] = conversation
        stats.plaintextBytesTruncated &+= UInt64(dropped)
        counters.plaintext = stats
        var first: PlaintextLocation?
        for record in records {
            let location = writePlaintext(record, of: plaintext, direction: direction, key: key, stream: conversation.stream,
                                          now: record.kept.isEmpty ? gapTime : now)
            first = first ?? location
        }
        return first
    }

    /// Writes one of the budget's records — split where it keeps more than a file's record may
    /// hold, so the writer never cuts what the budget kept — and queues its index rows.
    @discardableResult
    func writePlaintext(_ record: PlaintextBudget.Record, of chunk: Data, direction: Direction, key: FlowKey,
                        stream: UInt64, now: UInt64) -> PlaintextLocation? {
        guard let sink = plaintextSink, counters.plaintext?.plaintextDisabledByFailure == false else { return nil }
        let limit = Int(sink.maxRecordBytes)
        var first: PlaintextLocation?
        var start = record.kept.lowerBound
        repeat {
            let end = min(record.kept.upperBound, start + limit)
            let last = end == record.kept.upperBound
            let original = end - start + (last ? record.dropped : 0)
            let bytes = chunk.subdata(in: (chunk.startIndex + start)..<(chunk.startIndex + end))
            let location: PlaintextLocation?
            do {
                location = try sink.write(bytes, originalLength: original, stream: stream, direction: direction,
                                          timestamp: config.anchor.nanosecondsSince1970(forUptime: now))
            } catch {
                plaintextFailed(error)
                return first
            }
            noticePlaintextFile(sink.currentFileSequence)
            if let location {
                first = first ?? location
                batch.plaintext.append(PlaintextChunkRecord(flowKey: key, timestamp: now, direction: direction, stream: stream,
                                                            location: location, storedLength: UInt32(bytes.count),
                                                            originalLength: UInt32(clamping: original)))
                counters.plaintext?.plaintextChunksWritten &+= 1
                counters.plaintext?.plaintextBytesStored &+= UInt64(bytes.count)
            }
            start = end
        } while start < record.kept.upperBound
        return first
    }

    /// Runs `body` on the sink unless a failure stopped it; a failure stops it and is counted.
    func writeOutPlaintext(_ body: (any PlaintextSink) throws(PlaintextWriteError) -> Void) {
        guard let sink = plaintextSink, counters.plaintext?.plaintextDisabledByFailure == false else { return }
        do throws(PlaintextWriteError) {
            try body(sink)
        } catch {
            plaintextFailed(error)
        }
    }

    /// A flow that ended lets go of its conversation and budget (only its own lifetime's), first
    /// writing the gaps its budget still owed: what followed the last kept bytes unkept.
    func releasePlaintext(of record: FlowRecord) {
        guard var conversation = plaintextConversations[record.key], conversation.firstSeen == record.firstSeen else { return }
        plaintextConversations[record.key] = nil
        writeClosingGaps(of: &conversation, key: record.key)
    }

    /// Stopping with flows still open: each conversation's owed gaps are written, so what the
    /// session did not keep is placed even though the flows never ended.
    func writeClosingPlaintextGaps() {
        for key in Array(plaintextConversations.keys) {
            guard var conversation = plaintextConversations[key] else { continue }
            writeClosingGaps(of: &conversation, key: key)
            plaintextConversations[key] = conversation
        }
    }

    private func writeClosingGaps(of conversation: inout PlaintextConversation, key: FlowKey) {
        for (direction, gap) in conversation.budget.closingGaps() {
            writePlaintext(gap, of: Data(), direction: direction, key: key, stream: conversation.stream,
                           now: conversation.lastChunk[Int(direction.rawValue)] ?? lastNow)
        }
    }

    /// Stops keeping decrypted content for the session, counts it and tells it once. The file
    /// being written is then none: the sweep may run over every file.
    private func plaintextFailed(_ error: PlaintextWriteError) {
        guard var stats = counters.plaintext else { return }
        let wasRecording = !stats.plaintextDisabledByFailure
        stats.plaintextWriteFailures &+= 1
        stats.plaintextDisabledByFailure = true
        stats.lastPlaintextError = error.description
        counters.plaintext = stats
        if error.meansDiskFull { counters.diskFull = true }
        plaintextConversations.removeAll()
        if wasRecording {
            recordingStopped?(RecordingStop(plaintext: error, chunksWritten: stats.plaintextChunksWritten))
            noticePlaintextFile(nil)
        }
    }

    private func noticePlaintextFile(_ sequence: UInt32?) {
        guard sequence != plaintextFileSequence else { return }
        plaintextFileSequence = sequence
        plaintextFileChanged?(sequence)
    }
}
