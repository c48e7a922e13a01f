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

    /// Takes one segment and hands `deliver` the bytes it makes contiguous, in order: the
    /// segment's own bytes straight from the capture (no copy) when it is the next in sequence,
    /// then any held segments it reached.
    package mutating func receive(sequence: SequenceNumber, isSyn: Bool, payload: UnsafeRawBufferPointer,
                                  deliver: (UnsafeRawBufferPointer) -> Void) {
        guard !isDone else { return }
        if next == nil {
            // The SYN takes one sequence number; a capture that starts mid-stream starts here.
            next = isSyn ? sequence + 1 : sequence
        }
        guard payload.count > 0, var expected = next else { return }
        let start = isSyn ? sequence + 1 : sequence
        let overlap = expected - start
        if overlap >= payload.count { return }                          // all of it already handed out
        guard overlap >= 0 else {
            if held.count < Self.maxHeldSegments { held.append((start, Data(payload))) }
            return
        }
        let fresh = UnsafeRawBufferPointer(rebasing: payload[overlap...])
        take(fresh, deliver)
        expected = expected + fresh.count
        // Held segments the new bytes reached.
        var progressed = true
        while progressed && !held.isEmpty && !isDone {
            progressed = false
            for index in held.indices.reversed() {
                let piece = held[index]
                let pieceOverlap = expected - piece.sequence
                guard pieceOverlap >= 0 else { continue }
                held.remove(at: index)
                progressed = true
                if pieceOverlap < piece.payload.count {
                    piece.payload.dropFirst(pieceOverlap).withUnsafeBytes { take($0, deliver) }
                    expected = expected + (piece.payload.count - pieceOverlap)
                }
            }
        }
        next = expected
        if isDone { held.removeAll() }
    }

    /// Hands out `bytes` up to the limit.
    private mutating func take(_ bytes: UnsafeRawBufferPointer, _ deliver: (UnsafeRawBufferPointer) -> Void) {
        let count = min(bytes.count, limit - delivered)
        guard count > 0 else { return }
        delivered += count
        deliver(UnsafeRawBufferPointer(rebasing: bytes[..<count]))
    }
}
