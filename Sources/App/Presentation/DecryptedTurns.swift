import Foundation
import Shared

/// One inspected connection's decrypted content as turns (screens.md, Decrypted content): a turn
/// is a maximal run of consecutive chunks in the same direction — no splitting by time gaps.
/// Each turn carries both exact lengths, the bytes kept and the bytes carried; no size of the
/// whole connection is claimed, since after a cut only a lower bound exists. Pure.
package struct DecryptedTurns: Sendable, Equatable {
    package let turns: [DecryptedTurn]

    /// `chunks` in conversation order, as `HistoryReader.plaintext(forFlow:)` returns them.
    package init(_ chunks: [DecryptedChunk]) {
        var turns: [DecryptedTurn] = []
        for chunk in chunks {
            if let last = turns.last, last.direction == chunk.direction {
                turns[turns.count - 1] = last.appending(chunk)
            } else {
                turns.append(DecryptedTurn(chunk))
            }
        }
        self.turns = turns
    }

    /// One direction as kept: its bytes in order, each gap the budget left at its place — the
    /// stream an application protocol is read from.
    package func kept(_ direction: Direction) -> KeptStream {
        turns.filter { $0.direction == direction }.reduce(into: KeptStream()) { $0.append(contentsOf: $1.kept) }
    }

    /// Every byte kept in one direction, end to end (gaps closed up).
    package func stream(_ direction: Direction) -> Data {
        turns.filter { $0.direction == direction }.reduce(into: Data()) { $0.append($1.bytes) }
    }

    /// When the byte at `offset` of `direction`'s kept bytes was seen: its turn's first chunk's time.
    package func timestamp(ofByte offset: Int, in direction: Direction) -> Date? {
        var start = 0
        for turn in turns where turn.direction == direction {
            if offset < start + turn.storedLength { return turn.timestamp }
            start += turn.storedLength
        }
        return nil
    }

    /// Whether the budget left some of `direction` unkept.
    package func isCut(_ direction: Direction) -> Bool {
        turns.contains { $0.direction == direction && $0.isTruncated }
    }
}

/// A run of one direction's chunks.
package struct DecryptedTurn: Sendable, Equatable {
    package let direction: Direction
    /// When the turn's first chunk was seen.
    package let timestamp: Date
    /// The turn's chunks end to end, with the gaps the budget left.
    package let kept: KeptStream

    init(_ chunk: DecryptedChunk) {
        direction = chunk.direction
        timestamp = chunk.timestamp
        var kept = KeptStream()
        kept.append(chunk.bytes, dropped: chunk.originalLength - chunk.bytes.count)
        self.kept = kept
    }

    init(direction: Direction, timestamp: Date, kept: KeptStream) {
        self.direction = direction
        self.timestamp = timestamp
        self.kept = kept
    }

    func appending(_ chunk: DecryptedChunk) -> DecryptedTurn {
        var kept = kept
        kept.append(chunk.bytes, dropped: chunk.originalLength - chunk.bytes.count)
        return DecryptedTurn(direction: direction, timestamp: timestamp, kept: kept)
    }

    /// The bytes kept, all the turn's chunks end to end.
    package var bytes: Data { Data(kept.bytes) }
    package var storedLength: Int { kept.bytes.count }
    /// The bytes the turn's chunks carried; more than `storedLength` when the budget cut it.
    package var originalLength: Int { kept.carried }

    /// The budget left some of this turn unkept.
    package var isTruncated: Bool { kept.hasGaps }

    /// How its bytes read: text or a dump.
    package var rendering: DecryptedBytesRendering { DecryptedBytesRendering(bytes) }
}
