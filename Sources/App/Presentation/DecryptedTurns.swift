import Foundation
import Shared

/// One inspected connection's decrypted content as turns (screens.md, Decrypted content): a turn
/// is a maximal run of consecutive chunks in the same direction — no splitting by time gaps.
/// Each turn carries both exact lengths, the bytes kept and the bytes carried; no size of the
/// whole connection is claimed, since after a cut only a lower bound exists. Pure.
public struct DecryptedTurns: Sendable, Equatable {
    public let turns: [DecryptedTurn]

    /// `chunks` in conversation order, as `HistoryReader.plaintext(forFlow:)` returns them.
    public init(_ chunks: [DecryptedChunk]) {
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

    /// Every byte kept in one direction, in order: the stream an application protocol is read from.
    public func stream(_ direction: Direction) -> Data {
        turns.filter { $0.direction == direction }.reduce(into: Data()) { $0.append($1.bytes) }
    }

    /// When the byte at `offset` of `direction`'s stream was seen: its turn's first chunk's time.
    public func timestamp(ofByte offset: Int, in direction: Direction) -> Date? {
        var start = 0
        for turn in turns where turn.direction == direction {
            if offset < start + turn.bytes.count { return turn.timestamp }
            start += turn.bytes.count
        }
        return nil
    }

    /// Whether the budget cut `direction`: what followed the cut in that direction was not kept.
    public func isCut(_ direction: Direction) -> Bool {
        turns.contains { $0.direction == direction && $0.isTruncated }
    }
}

/// A run of one direction's chunks.
public struct DecryptedTurn: Sendable, Equatable {
    public let direction: Direction
    /// When the turn's first chunk was seen.
    public let timestamp: Date
    /// The bytes kept, all the turn's chunks end to end.
    public let bytes: Data
    /// The bytes the turn's chunks carried; more than `bytes.count` when the budget cut it.
    public let originalLength: Int

    init(_ chunk: DecryptedChunk) {
        direction = chunk.direction
        timestamp = chunk.timestamp
        bytes = chunk.bytes
        originalLength = chunk.originalLength
    }

    init(direction: Direction, timestamp: Date, bytes: Data, originalLength: Int) {
        self.direction = direction
        self.timestamp = timestamp
        self.bytes = bytes
        self.originalLength = originalLength
    }

    func appending(_ chunk: DecryptedChunk) -> DecryptedTurn {
        DecryptedTurn(direction: direction, timestamp: timestamp, bytes: bytes + chunk.bytes,
                      originalLength: originalLength + chunk.originalLength)
    }

    public var storedLength: Int { bytes.count }

    /// The budget cut this turn: a cut record is the last its direction kept (the budget cuts
    /// before the writer), so nothing after it in this direction is known.
    public var isTruncated: Bool { bytes.count < originalLength }

    /// How its bytes read: text or a dump.
    public var rendering: DecryptedBytesRendering { DecryptedBytesRendering(bytes) }
}
