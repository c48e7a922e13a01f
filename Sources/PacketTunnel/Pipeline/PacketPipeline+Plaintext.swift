import Foundation
import Shared

extension PacketPipeline {
    /// One decrypted chunk of flow `key` (the relay's hookup, on the loop's thread, in
    /// conversation order, only while the session keeps decrypted content). The flow must still
    /// be in the table: a chunk whose flow is gone is refused and counted before anything touches
    /// disk. The flow's conversation is opened on its first chunk; the per-direction budget keeps
    /// the beginning and counts the rest; the index row waits for the next flush, where the flow's
    /// row id exists. The file's record is dated absolutely and the row monotonically, from the
    /// one anchor the store also dates with.
    ///
    /// A write failure (a full disk) stops keeping decrypted content for the session and says so
    /// once (`recordingStopped`); the tunnel goes on. Returns where the chunk landed, nil when
    /// nothing was stored.
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
                                                 budget: PlaintextBudget(bytesPerDirection: config.plaintextBytesPerDirection))
        }
        let admitted = conversation.budget.admit(plaintext.count, direction: direction)
        plaintextConversations[key] = conversation
        stats.plaintextBytesTruncated &+= UInt64(admitted.dropped)
        counters.plaintext = stats
        if admitted.storesNothing { return nil }
        let location: PlaintextLocation?
        do {
            location = try sink.write(plaintext.prefix(admitted.stored), originalLength: plaintext.count,
                                      stream: conversation.stream, direction: direction,
                                      timestamp: config.anchor.nanosecondsSince1970(forUptime: now))
        } catch {
            plaintextFailed(error)
            return nil
        }
        noticePlaintextFile(sink.currentFileSequence)
        guard let location else { return nil }
        let stored = UInt32(min(admitted.stored, Int(sink.maxRecordBytes)))
        batch.plaintext.append(PlaintextChunkRecord(flowKey: key, timestamp: now, direction: direction,
                                                    stream: conversation.stream, location: location,
                                                    storedLength: stored, originalLength: UInt32(clamping: plaintext.count)))
        counters.plaintext?.plaintextChunksWritten &+= 1
        counters.plaintext?.plaintextBytesStored &+= UInt64(stored)
        return location
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

    /// A flow that ended lets go of its conversation and budget (only its own lifetime's).
    func releasePlaintext(of record: FlowRecord) {
        if plaintextConversations[record.key]?.firstSeen == record.firstSeen { plaintextConversations[record.key] = nil }
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
