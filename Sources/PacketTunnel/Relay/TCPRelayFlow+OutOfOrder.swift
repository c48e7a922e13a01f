import Foundation

extension TCPRelayFlow {
    /// Device bytes that arrived ahead of a gap, held until the gap fills. Pieces never overlap:
    /// a byte is stored once however often the device resends it, so it is forwarded once.
    struct OutOfOrderQueue: Sendable {
        struct Piece: Sendable, Equatable {
            var start: SequenceNumber
            var bytes: Data
            var end: SequenceNumber { start + bytes.count }
        }

        let maxBytes: Int
        let maxPieces: Int
        /// Sorted by `start`, disjoint.
        private(set) var pieces: [Piece] = []
        private(set) var byteCount = 0

        init(maxBytes: Int, maxPieces: Int) {
            self.maxBytes = maxBytes
            self.maxPieces = maxPieces
        }

        /// Holds the bytes of `bytes` (starting at `start`) not held already. Returns false, holding
        /// nothing, when that would pass either cap: the device will send them again.
        @discardableResult
        mutating func insert(_ bytes: Data, at start: SequenceNumber) -> Bool {
            let end = start + bytes.count
            var cursor = start
            var fresh: [Piece] = []
            for piece in pieces {
                if piece.end <= cursor { continue }
                if piece.start >= end { break }
                if piece.start > cursor { fresh.append(slice(bytes, from: start, cursor, piece.start)) }
                cursor = max(cursor, piece.end)
            }
            if cursor < end { fresh.append(slice(bytes, from: start, cursor, end)) }
            let added = fresh.reduce(0) { $0 + $1.bytes.count }
            guard byteCount + added <= maxBytes, pieces.count + fresh.count <= maxPieces else { return false }
            pieces.append(contentsOf: fresh)
            pieces.sort { $0.start < $1.start }
            byteCount += added
            return true
        }

        /// Removes the bytes that continue the stream at `next`, advancing `next` past them, and
        /// discards what lies wholly before it.
        mutating func take(from next: inout SequenceNumber) -> Data {
            var taken = Data()
            while let first = pieces.first, first.start <= next {
                pieces.removeFirst()
                byteCount -= first.bytes.count
                guard first.end > next else { continue }
                taken.append(first.bytes.dropFirst(next - first.start))
                next = first.end
            }
            return taken
        }

        mutating func removeAll() {
            pieces.removeAll()
            byteCount = 0
        }

        private func slice(_ bytes: Data, from start: SequenceNumber, _ lower: SequenceNumber,
                           _ upper: SequenceNumber) -> Piece {
            let offset = bytes.startIndex + (lower - start)
            return Piece(start: lower, bytes: Data(bytes[offset..<(offset + (upper - lower))]))
        }
    }
}
