import Shared

/// What the offline pipeline's store is: it keeps every flow record the pipeline hands it, by
/// 5-tuple, in the order the 5-tuples first ended, and folds the lifetimes of one 5-tuple into one
/// conversation (a late ACK after both FINs starts a new lifetime in the flow table, as it does
/// live, where the store folds them the same way). Nothing is refused.
///
/// The batches are kept whole and indexed, not copied record by record: a record is moved out once,
/// when its conversation is taken (`takeRecord`).
final class CollectedConversations: FlowPersisting {
    /// Where one lifetime's record is, and the lifetime of the same 5-tuple before it.
    private struct Lifetime {
        let batch: Int
        let position: Int
        let firstSeen: UInt64
        /// Index in `lifetimes`, or -1 for a 5-tuple's first.
        let earlier: Int
    }

    private var batches: [[FlowRecord]] = []
    private var lifetimes: [Lifetime] = []
    /// Per conversation: its latest lifetime…
    private var latest: [Int] = []
    /// …when its first lifetime began…
    private(set) var firstSeen: [UInt64] = []
    /// …and which one a 5-tuple is.
    private var conversationByKey: [FlowKey: Int] = [:]
    var outcomes = PersistenceOutcomes()

    func persist(_ batch: FlowStoreBatch) -> Bool {
        let batchIndex = batches.count
        batches.append(batch.flows)
        batch.flows.withUnsafeBufferPointer { records in
            for position in records.indices {
                // Read field by field through the pointer: the record itself stays where it is.
                let key = records[position].key
                let began = records[position].firstSeen
                // One lookup, inserting the next conversation's number when the 5-tuple is new.
                let next = latest.count
                let conversation = Self.number(of: key, in: &conversationByKey, orNew: next)
                guard conversation != next else {
                    latest.append(lifetimes.count)
                    firstSeen.append(began)
                    lifetimes.append(Lifetime(batch: batchIndex, position: position, firstSeen: began, earlier: -1))
                    continue
                }
                // The same lifetime again replaces its record; a new one follows it.
                let previous = lifetimes[latest[conversation]]
                let earlier = previous.firstSeen == began ? previous.earlier : latest[conversation]
                latest[conversation] = lifetimes.count
                lifetimes.append(Lifetime(batch: batchIndex, position: position, firstSeen: began, earlier: earlier))
            }
        }
        outcomes.batchesWritten += 1
        return true
    }

    /// The number `key` has in `numbers`, given `new` first if it had none: one hash of the key.
    private static func number(of key: FlowKey, in numbers: inout [FlowKey: Int], orNew new: Int) -> Int {
        func take(_ number: inout Int) -> Int { number }
        return take(&numbers[key, default: new])
    }

    /// The 5-tuple of conversation `index`, read without copying its record.
    func key(at index: Int) -> FlowKey {
        let lifetime = lifetimes[latest[index]]
        return batches[lifetime.batch][lifetime.position].key
    }

    /// Every lifetime of conversation `index`, as one record, moved out: what is left in its place
    /// is an empty record of the same key and start. For the end of a reading, where each
    /// conversation is taken once — copying each record out, and later freeing the one kept, was
    /// a few percent of `analyze`.
    func takeRecord(at index: Int) -> FlowRecord {
        let last = lifetimes[latest[index]]
        // Most conversations have one lifetime: its record as it is, with no chain to gather.
        guard last.earlier >= 0 else { return take(last) }
        var chain = [latest[index]]
        while lifetimes[chain[chain.count - 1]].earlier >= 0 { chain.append(lifetimes[chain[chain.count - 1]].earlier) }
        var merged = take(lifetimes[chain[chain.count - 1]])
        for lifetime in chain.dropLast().reversed() { merged = merged.followed(by: take(lifetimes[lifetime])) }
        return merged
    }

    private func take(_ lifetime: Lifetime) -> FlowRecord {
        // Field by field: reading the record whole would copy it, retaining what it holds.
        let (batch, position) = (lifetime.batch, lifetime.position)
        var taken = FlowRecord(key: batches[batch][position].key, firstSeen: batches[batch][position].firstSeen,
                               tlsStatus: batches[batch][position].tlsStatus)
        swap(&taken, &batches[batch][position])
        return taken
    }

    nonisolated(nonsending) func drain() async {}
}

extension FlowRecord {
    /// This lifetime and a later one of the same 5-tuple as one record: totals added, the span
    /// from the first to the last, and each fact as first learned.
    func followed(by later: FlowRecord) -> FlowRecord {
        var merged = FlowRecord(key: key, firstSeen: firstSeen, tlsStatus: tlsStatus)
        merged.lastSeen = max(lastSeen, later.lastSeen)
        merged.bytesOut = bytesOut + later.bytesOut
        merged.bytesIn = bytesIn + later.bytesIn
        merged.packetCount = packetCount + later.packetCount
        merged.sni = sni ?? later.sni
        merged.resolvedName = resolvedName ?? later.resolvedName
        merged.serverTLS = serverTLS ?? later.serverTLS
        merged.serverFingerprints = serverTLS != nil ? self.serverFingerprints : later.serverFingerprints
        merged.clientTLS = clientTLS ?? later.clientTLS
        merged.clientFingerprints = clientTLS != nil ? self.clientFingerprints : later.clientFingerprints
        merged.quic = self.quic ?? later.quic
        merged.serverCertificates = serverCertificates ?? later.serverCertificates
        merged.streamOpening = streamOpening ?? later.streamOpening
        merged.proxyTarget = self.proxyTarget ?? later.proxyTarget
        merged.dnsExchange = self.dnsExchange ?? later.dnsExchange
        return merged
    }
}

