import Shared

extension PacketPipeline {
    /// The per-packet path shared by device datagrams and reinjected replies: parse, direction,
    /// flow, capture, then publish (the meta carries the capture's location, spec "Orden"), then
    /// the batch.
    func record(_ packet: UnsafeRawBufferPointer, originalLength: Int? = nil, now: UInt64,
                reinjected: Bool) -> PacketDisposition {
        lastNow = max(lastNow, now)
        let parsed: ParsedPacket
        do {
            parsed = try PacketParser.parse(packet, originalLength: originalLength)
        } catch {
            counters.parseDrops.count(error)
            return .dropped(.parseFailed(error))
        }
        switch record(parsed, packet, now: now, reinjected: reinjected) {
        case .counted: return .passthrough(parsed)
        case .noDirection: return .dropped(.noLocalAddress)
        case .refused: return .refused(parsed)
        }
    }

    /// What `record` made of a parsed packet.
    enum Recording {
        /// Counted into this flow.
        case counted(RecordedFlow)
        /// Its direction cannot be told (counted).
        case noDirection
        /// It would open a flow and the table has no room (counted unless reinjected).
        case refused
    }

    /// `record` after the parse.
    func record(_ parsed: ParsedPacket, _ packet: UnsafeRawBufferPointer, now: UInt64,
                reinjected: Bool) -> Recording {
        let key = parsed.flowKey
        let found = flowTable.find(key)
        guard let (direction, local) = directionRule.direction(of: parsed, key: key, found: found) else {
            counters.packetsDroppedNoLocalAddress &+= 1
            return .noDirection
        }
        let length = UInt32(clamping: parsed.originalLength)
        let remote = direction == .outbound ? parsed.ip.destination : parsed.ip.source
        let datagram = readDatagram(parsed, packet, direction: direction, now: now)
        let quic = datagram?.quic
        guard let flow = flowTable.count(parsed, key: key, found: found, direction: direction, length: length, now: now,
                                         resolvedName: resolvedName(for: remote, now: now), quic: quic, localSide: local) else {
            // The relay's answer to a refused opening (its RST) is not another refusal.
            if !reinjected { counters.flowsRefusedAtCapacity &+= 1 }
            endDrained(key: key)
            return .refused
        }
        if reinjected { counters.reinjectedRecorded &+= 1 }
        if flow.closesFlow { counters.flowsClosed &+= 1 }
        if flow.opened {
            if let local, directionRule.isMachine(local.address) { flowTable.apply(.localEnd(local), for: key) }
            counters.flowsOpened &+= 1
            if flow.isNamedByDNS { counters.dnsNames.flowsNamed &+= 1 }
            if let flowOpened, parsed.tcp != nil || parsed.udp != nil {
                let (local, remote) = direction == .outbound ? (parsed.source, parsed.destination) : (parsed.destination, parsed.source)
                flowOpened(key, local, remote, now)
            }
        }
        if config.recordsEachPacket {
            let meta = PacketMeta(timestamp: now, flowKey: key, direction: direction, length: length,
                                  tcpFlags: parsed.tcp?.flags ?? [], capture: captureRecord(of: packet, now: now),
                                  localEnd: flowTable.localEnd(inSlot: flow.slot))
            if liveFeed.publish(meta) {
                counters.packetsPublished &+= 1
            } else {
                counters.liveFeedDrops &+= 1
            }
            unnotified = true
            // The lifetime a new connection on this 5-tuple ended goes first, with its final record.
            endDrained(key: key)
            batch.packets.append(meta)
            place(flowTable.record(inSlot: flow.slot))
        }
        // After the packet's own record is placed, so a name read from it replaces that record.
        if let quic, flow.readsQUICHandshake { readQUICHandshake(key, parsed, packet, from: quic.source) }
        if let dns = datagram?.dns { observe([dns], for: key) }
        endDrained(key: key)
        if batch.packets.count >= config.batchSize || intervalPassed(now) { flush(now: now) }
        return .counted(RecordedFlow(key: key, direction: direction, counted: flow))
    }

    /// Ends every flow the table let go of since the last look: a lifetime whose connection ended
    /// (its linger over, or another connection began on its 5-tuple), or one given up for room.
    /// `key` is the packet's own, whose old lifetime must not take the new one's QUIC reader.
    func endDrained(key: FlowKey? = nil) {
        for ended in flowTable.drainClosed() {
            if ended.reason == .evicted { counters.flowsEvicted &+= 1 }
            end(ended.record, keepingReaderOf: key)
        }
    }

    /// Whether the capture is on and keeps a packet of `length` bytes whole: then a checksum the
    /// device left partial must be completed before it is recorded, or every reader of the file
    /// would see it wrong.
    package func capturesWhole(length: Int) -> Bool {
        guard config.captureEnabled, !counters.captureDisabledByFailure, let capture else { return false }
        return Int(capture.snaplen) >= length
    }

    /// Writes the packet to the capture when it is on; a failure turns it off and is counted, and
    /// the packet goes uncaptured.
    func captureRecord(of packet: UnsafeRawBufferPointer, now: UInt64) -> CaptureLocation? {
        guard config.captureEnabled, let capture else { return nil }
        do {
            let location = try capture.write(bytes: packet, originalLength: packet.count,
                                             timestamp: config.anchor.nanosecondsSince1970(forUptime: now))
            counters.packetsCaptured &+= 1
            return location
        } catch {
            captureFailed(error)
            return nil
        }
    }

    /// Runs `body` on the capture unless a failure broke it — also when the person turned capture
    /// off, since records already written may still sit in its buffer; a failure turns it off and
    /// is counted.
    func writeOutCapture(_ body: (any CaptureSink) throws(PcapError) -> Void) {
        guard !counters.captureDisabledByFailure, let capture else { return }
        do throws(PcapError) {
            try body(capture)
        } catch {
            captureFailed(error)
        }
    }

    /// Turns capture off and counts the failure; the first failure since capture was (re-)armed
    /// is told once, as it happens. Records buffered but never written are not counted captured.
    private func captureFailed(_ error: PcapError) {
        let wasRecording = !counters.captureDisabledByFailure
        config.captureEnabled = false
        counters.captureFailures &+= 1
        counters.captureDisabledByFailure = true
        counters.lastCaptureError = error.description
        if error.meansDiskFull { counters.diskFull = true }
        if let capture { counters.packetsCaptured = capture.recordsWritten }
        if wasRecording { recordingStopped?(RecordingStop(capture: error, packetsCaptured: counters.packetsCaptured)) }
    }

    /// A flow that ended: its final record goes into the batch and its key to the next tick.
    /// `keepingReaderOf` is a 5-tuple whose new lifetime already began: its reader is the new one's.
    func end(_ record: FlowRecord, keepingReaderOf live: FlowKey? = nil) {
        place(record)
        endedKeys.append(record.key)
        if !plaintextConversations.isEmpty { releasePlaintext(of: record) }
        if !quicReaders.isEmpty && record.key != live { forgetQUICReader(record.key) }
    }

    /// Puts a flow's latest record into the batch, replacing the one of the same lifetime. A new
    /// lifetime of the same 5-tuple (a late ACK after both FINs) is appended after the old one's
    /// final record, so the store folds both, in order.
    func place(_ record: FlowRecord) {
        // Recording flows only, each lifetime is placed once, as it ends (or the reading does).
        guard config.recordsEachPacket else { return batch.flows.append(record) }
        if let slot = batchSlot[record.key], batch.flows[slot].firstSeen == record.firstSeen {
            batch.flows[slot] = record
        } else {
            batchSlot[record.key] = batch.flows.count
            batch.flows.append(record)
        }
    }

    func intervalPassed(_ now: UInt64) -> Bool {
        guard let lastFlush else {
            lastFlush = now
            return false
        }
        return now >= lastFlush && now - lastFlush >= config.flushInterval
    }
}
