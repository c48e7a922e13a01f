import Foundation
import Shared

/// One direction of a TCP connection seen in a capture, put back in order for the scanners:
/// every byte handed out once, in sequence order, whatever order and overlap the segments had.
///
/// Only the stream's first `limit` bytes are ever wanted (the scanners' reach: a handshake is read
/// long before that), so only they are held. Segments ahead of a gap are held as far as the limit
/// and no further, and within three bounds: the bytes still wanted, `maxHeldSegments`, and the
/// room the caller gives (the analyzer's budget over all its flows). What is not held is counted
/// in `notHeld` — as a capture that lost it would, the bytes behind it are then never read.
package struct TCPStreamReassembler: Sendable {
    /// Segments held ahead of a gap: their bookkeeping, not their bytes, is what this bounds.
    static let maxHeldSegments = 128

    /// The next byte expected; nil until the direction's first segment.
    private var next: SequenceNumber?
    private var held: [(sequence: SequenceNumber, payload: Data)] = []
    private var delivered = 0
    private let limit: Int
    /// Bytes of the segments in `held`.
    package private(set) var heldByteCount = 0
    /// Out-of-order data not held.
    package private(set) var notHeld = OutOfOrderDrops.none

    package init(limit: Int) {
        self.limit = limit
    }

    /// The stream reached its limit: nothing more will be handed out.
    package var isDone: Bool { delivered >= limit }

    /// Takes one segment and hands `deliver` the bytes it makes contiguous, in order: the
    /// segment's own bytes straight from the capture (no copy) when it is the next in sequence,
    /// then any held segments it reached. A segment ahead of a gap is held if it fits: within the
    /// limit, `maxHeldSegments`, and `room` more bytes.
    package mutating func receive(sequence: SequenceNumber, isSyn: Bool, payload: UnsafeRawBufferPointer,
                                  room: Int = .max, deliver: (UnsafeRawBufferPointer) -> Void) {
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
            hold(payload, at: start, ahead: -overlap, room: room)
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
                heldByteCount -= piece.payload.count
                progressed = true
                if pieceOverlap < piece.payload.count {
                    piece.payload.dropFirst(pieceOverlap).withUnsafeBytes { take($0, deliver) }
                    expected = expected + (piece.payload.count - pieceOverlap)
                }
            }
        }
        next = expected
        if isDone { release() }
    }

    /// Drops every held segment (the stream is no longer wanted); returns the bytes freed.
    @discardableResult
    package mutating func release() -> Int {
        let freed = heldByteCount
        held.removeAll()
        heldByteCount = 0
        return freed
    }

    /// Holds the part of a segment `ahead` bytes past the next expected one that lies within the
    /// limit, if the bounds allow; counts what it does not hold.
    private mutating func hold(_ payload: UnsafeRawBufferPointer, at start: SequenceNumber, ahead: Int, room: Int) {
        let wanted = limit - delivered
        let within = max(0, min(payload.count, wanted - ahead))
        // Never more held than could still be handed out (retransmitted copies included).
        let fits = within > 0 && held.count < Self.maxHeldSegments
            && heldByteCount + within <= wanted && within <= room
        let kept = fits ? within : 0
        if kept > 0 {
            held.append((start, Data(UnsafeRawBufferPointer(rebasing: payload[..<kept]))))
            heldByteCount += kept
        }
        if kept < payload.count { notHeld.count(bytes: payload.count - kept) }
    }

    /// Hands out `bytes` up to the limit.
    private mutating func take(_ bytes: UnsafeRawBufferPointer, _ deliver: (UnsafeRawBufferPointer) -> Void) {
        let count = min(bytes.count, limit - delivered)
        guard count > 0 else { return }
        delivered += count
        deliver(UnsafeRawBufferPointer(rebasing: bytes[..<count]))
    }
}
