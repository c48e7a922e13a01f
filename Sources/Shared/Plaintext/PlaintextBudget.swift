import Foundation

/// What of one inspected flow's decrypted content is kept (ADR 0007), decided chunk by chunk as
/// it is decrypted. It serves every request on the connection, not only the first:
/// - Each **turn** — a run of one direction's chunks between the other direction's — keeps its
///   first `bytesPerTurn`: a large first response no longer leaves later requests with nothing.
/// - **HTTP/2** (named by the client's preface or the server's first SETTINGS, RFC 9113 §3.4)
///   carries every request at once, so turns mean nothing there: every frame header and every
///   frame but DATA is kept whole — what HPACK and the streams need — and each stream's DATA keeps
///   its first `bytesPerTurn` per direction. The frame headers make each stream's total known.
/// - A direction keeps at most `bytesPerDirection` bytes in `recordsPerDirection` records; past
///   either, nothing more of it is kept, and the rest is counted.
///
/// What is not kept is never unplaced: each record says how many bytes followed its kept ones
/// unkept, and whole chunks dropped become records keeping nothing (gaps) — one as soon as a
/// dropped run begins, so a live reader already knows the bytes were not kept, then one for the
/// rest of the run before the direction's next kept bytes or when the flow ends. A reader knows
/// where every kept byte stood in the conversation. Pure.
package struct PlaintextBudget: Sendable {
    package struct Limits: Sendable, Equatable {
        package var bytesPerTurn: Int
        package var bytesPerDirection: Int
        package var recordsPerDirection: Int

        package init(bytesPerTurn: Int = 64 << 10, bytesPerDirection: Int = 1 << 20, recordsPerDirection: Int = 8_192) {
            self.bytesPerTurn = max(0, bytesPerTurn)
            self.bytesPerDirection = max(0, bytesPerDirection)
            self.recordsPerDirection = max(0, recordsPerDirection)
        }

        /// 64 KiB a turn (or an HTTP/2 stream), 1 MiB and 8 192 records a direction.
        package static let standard = Limits()
        /// Keeps nothing: how keeping off works without touching the byte path.
        package static let nothing = Limits(bytesPerTurn: 0, bytesPerDirection: 0, recordsPerDirection: 0)
    }

    /// One record to write: the chunk's bytes at offsets `kept` (empty for a gap), followed in the
    /// conversation by `dropped` bytes that were not kept.
    package struct Record: Sendable, Equatable {
        package let kept: Range<Int>
        package let dropped: Int

        package init(kept: Range<Int>, dropped: Int) {
            self.kept = kept
            self.dropped = dropped
        }

        /// A record keeping nothing: `length` bytes not kept.
        package static func gap(_ length: Int) -> Record { Record(kept: 0..<0, dropped: length) }
        package var originalLength: Int { kept.count + dropped }
    }

    /// How the connection's bytes are divided, decided by its first chunk.
    package enum Reading: Sendable, Equatable { case undecided, turns, http2 }

    package let limits: Limits
    package private(set) var reading: Reading = .undecided
    private var sides = [Side(), Side()]
    private var lastDirection: Direction?

    package init(limits: Limits = .standard) {
        self.limits = limits
    }

    /// One direction's account.
    struct Side: Sendable {
        var keptBytes = 0
        var records = 0
        var turnKept = 0
        /// Bytes dropped since this direction's last record, not yet written anywhere.
        var pendingGap = 0
        /// A gap record already says that the current dropped run began.
        var gapAnnounced = false
        var exhausted = false
        var frames = HTTP2FrameKeeping()
        /// Whether anything of this direction was kept: only then do its gaps have a place.
        var keptAny: Bool { records > 0 }
    }

    /// The records to write for a `chunk` sent in `direction`, in order, and how many of its
    /// bytes were not kept.
    package mutating func admit(_ chunk: Data, direction: Direction) -> (records: [Record], dropped: Int) {
        if reading == .undecided { reading = Self.reading(chunk, direction: direction) }
        let index = Int(direction.rawValue)
        if lastDirection != direction { sides[index].turnKept = 0 }
        lastDirection = direction
        var plan = Plan(side: sides[index], limits: limits)
        switch reading {
        case .http2:
            var frames = plan.side.frames
            frames.walk(chunk, direction: direction, perStream: limits.bytesPerTurn) { keep, length in
                if keep { plan.keep(length) } else { plan.drop(length) }
            }
            plan.side.frames = frames
        case .turns, .undecided:
            let kept = min(chunk.count, max(0, limits.bytesPerTurn - plan.side.turnKept))
            plan.side.turnKept += kept
            plan.keep(kept)
            plan.drop(chunk.count - kept)
        }
        plan.announceGap()
        sides[index] = plan.finished()
        return (plan.records, plan.dropped)
    }

    /// The gaps still unwritten at the flow's end, per direction, as records keeping nothing;
    /// none for a direction of which nothing was kept (its gap would have no place).
    package mutating func closingGaps() -> [(Direction, Record)] {
        var gaps: [(Direction, Record)] = []
        for direction in [Direction.outbound, .inbound] {
            let index = Int(direction.rawValue)
            guard sides[index].keptAny || sides[1 - index].keptAny, sides[index].pendingGap > 0 else { continue }
            gaps += Self.gapRecords(sides[index].pendingGap).map { (direction, $0) }
            sides[index].pendingGap = 0
        }
        return gaps
    }

    /// A gap longer than a record can say (`original_length` is 32 bits) is said in several.
    static func gapRecords(_ length: Int) -> [Record] {
        stride(from: 0, to: length, by: Int(UInt32.max)).map { .gap(min(Int(UInt32.max), length - $0)) }
    }

    /// HTTP/2 when the client's first bytes are its preface, or the server's first frame is the
    /// SETTINGS its preface must be (§3.4: no flags but ACK, stream 0, a length of whole settings).
    static func reading(_ chunk: Data, direction: Direction) -> Reading {
        let bytes = [UInt8](chunk.prefix(HTTP2Connection.preface.count))
        if direction == .outbound {
            return !bytes.isEmpty && HTTP2Connection.preface.starts(with: bytes) ? .http2 : .turns
        }
        guard let frame = HTTP2FrameHeader(bytes) else { return .turns }
        return frame.type == HTTP2Frame.Kind.settings.rawValue && frame.flags & ~HTTP2Frame.Flag.acknowledge == 0 && bytes[5] & 0x80 == 0
            && frame.streamID == 0 && frame.payloadLength % 6 == 0 ? .http2 : .turns
    }

    /// One chunk's records, built from its runs of kept and dropped bytes.
    struct Plan {
        var side: Side
        let limits: Limits
        var records: [Record] = []
        var dropped = 0
        private var position = 0
        private var open: (start: Int, end: Int, dropped: Int)?

        init(side: Side, limits: Limits) {
            self.side = side
            self.limits = limits
        }

        mutating func keep(_ length: Int) {
            guard length > 0 else { return }
            let room = side.exhausted ? 0 : min(length, limits.bytesPerDirection - side.keptBytes)
            guard room > 0 else { side.exhausted = true; return drop(length) }
            if let current = open, current.dropped == 0 {
                open = (current.start, current.end + room, 0)
            } else {
                let gapRecords = side.pendingGap > 0 ? Self.gapCount(side.pendingGap) : 0
                guard side.records + (open == nil ? 0 : 1) + gapRecords < limits.recordsPerDirection else {
                    side.exhausted = true
                    return drop(length)
                }
                close()
                writePendingGap()
                open = (position, position + room, 0)
                side.gapAnnounced = false
            }
            side.keptBytes += room
            position += room
            if room < length {
                side.exhausted = true
                drop(length - room)
            }
        }

        mutating func drop(_ length: Int) {
            guard length > 0 else { return }
            dropped += length
            position += length
            if let current = open { open = (current.start, current.end, current.dropped + length) } else { side.pendingGap += length }
        }

        /// A dropped run that began in this chunk, after something was kept, is said at once.
        mutating func announceGap() {
            guard open == nil, side.pendingGap > 0, !side.gapAnnounced, side.keptAny,
                  side.records + Self.gapCount(side.pendingGap) <= limits.recordsPerDirection else { return }
            writePendingGap()
            side.gapAnnounced = true
        }

        private mutating func writePendingGap() {
            guard side.pendingGap > 0 else { return }
            for gap in PlaintextBudget.gapRecords(side.pendingGap) { append(gap) }
            side.pendingGap = 0
        }

        static func gapCount(_ length: Int) -> Int { (length + Int(UInt32.max) - 1) / Int(UInt32.max) }

        private mutating func append(_ record: Record) {
            records.append(record)
            side.records += 1
        }

        private mutating func close() {
            guard let current = open else { return }
            append(Record(kept: current.start..<current.end, dropped: current.dropped))
            open = nil
        }

        mutating func finished() -> Side {
            close()
            return side
        }
    }
}
