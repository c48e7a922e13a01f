import Foundation
import Shared

/// One direction of a TCP connection seen in a capture, put back in order for the scanners:
/// every byte handed out once, in sequence order, whatever order and overlap the segments had.
/// Bounded twice: segments ahead of a gap are held up to a cap (beyond it they are dropped, as a
/// capture that lost them would), and only the stream's first `limit` bytes are ever wanted — a
/// handshake is read long before that.
package struct TCPStreamReassembler: Sendable {
    package static let defaultLimit = 256 * 1024
    static let maxHeldSegments = 128

    /// The next byte expected; nil until the direction's first segment.
    private var next: SequenceNumber?
    private var held: [(sequence: SequenceNumber, payload: Data)] = []
    private var delivered = 0
    private let limit: Int

    package init(limit: Int = defaultLimit) {
        self.limit = limit
    }

    /// The stream reached its limit: nothing more will be handed out.
    package var isDone: Bool { delivered >= limit }

    /// Takes one segment; returns the bytes it makes contiguous, in order (often just its own).
    package mutating func receive(sequence: SequenceNumber, isSyn: Bool, payload: UnsafeRawBufferPointer) -> [Data] {
        guard !isDone else { return [] }
        if next == nil {
            // The SYN takes one sequence number; a capture that starts mid-stream starts here.
            next = isSyn ? sequence + 1 : sequence
        }
        guard payload.count > 0, var expected = next else { return [] }
        let start = isSyn ? sequence + 1 : sequence
        var out: [Data] = []
        let overlap = expected - start
        if overlap >= payload.count { return [] }                       // all of it already handed out
        if overlap >= 0 {
            let fresh = UnsafeRawBufferPointer(rebasing: payload[overlap...])
            out.append(Data(fresh.prefix(limit - delivered)))
            expected = expected + fresh.count
        } else if held.count < Self.maxHeldSegments {
            held.append((start, Data(payload)))
            return []
        } else {
            return []
        }
        // Held segments the new bytes reached.
        var progressed = true
        while progressed && !held.isEmpty {
            progressed = false
            for index in held.indices.reversed() {
                let piece = held[index]
                let pieceOverlap = expected - piece.sequence
                guard pieceOverlap >= 0 else { continue }
                held.remove(at: index)
                progressed = true
                if pieceOverlap < piece.payload.count {
                    out.append(piece.payload.dropFirst(pieceOverlap))
                    expected = expected + (piece.payload.count - pieceOverlap)
                }
            }
        }
        next = expected
        var taken: [Data] = []
        for chunk in out where delivered < limit {
            let cut = chunk.prefix(limit - delivered)
            delivered += cut.count
            taken.append(cut)
        }
        if isDone { held.removeAll() }
        return taken
    }
}
