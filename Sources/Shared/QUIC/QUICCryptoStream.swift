import Foundation

/// The client's Initial-level crypto stream of one connection, reassembled from CRYPTO frames
/// (RFC 9000 §19.6, §2.2) into its contiguous prefix: that stream is the ClientHello, so each
/// newly contiguous run is what a ClientHello scanner is fed next.
///
/// Frames may come out of order, overlap and repeat (retransmissions, coalescing, and clients
/// that split and shuffle the ClientHello on purpose). Bytes already received are kept: a later
/// frame only fills gaps (RFC 9000 §2.2 says resent data must not change; a monitor need not
/// police that). Bounded by `Budget`; past it the stream is refused and stays refused.
package struct QUICCryptoStream: Sendable {
    /// How much one connection may cost. Defaults: a ClientHello with post-quantum key shares
    /// (~1.8 KB) spans two ~1200-byte Initials; 16 KiB and 8 packets leave room for bigger
    /// hellos and retransmissions while capping what a flow holds.
    package struct Budget: Sendable, Hashable {
        /// Highest stream offset (exclusive) a frame may reach.
        package var byteLimit: Int
        /// Initial packets received before the stream is refused.
        package var packetLimit: Int
        /// Separate out-of-order runs held beyond the contiguous prefix.
        package var pieceLimit: Int

        package init(byteLimit: Int = 16 * 1024, packetLimit: Int = 8, pieceLimit: Int = 32) {
            self.byteLimit = byteLimit
            self.packetLimit = packetLimit
            self.pieceLimit = pieceLimit
        }

        package static let `default` = Budget()
    }

    /// Why a stream stopped taking frames. Any of these means the caller gives up naming the flow
    /// from this ClientHello (`QUICNameStats.helloIncomplete`).
    package enum Refusal: Error, Sendable, Hashable {
        /// More Initial packets than `Budget.packetLimit`.
        case tooManyPackets
        /// A frame reaching beyond `Budget.byteLimit`: the ClientHello is larger than we hold.
        case tooManyBytes
        /// More than `Budget.pieceLimit` separate runs waiting for a gap to fill.
        case tooFragmented
        /// An Initial's frames could not be read.
        case frames(QUICFrameError)
    }

    /// What one packet or frame did to the stream.
    package enum Progress: Sendable, Hashable {
        /// These stream offsets just became contiguous: feed `bytes(in:)` of them to the scanner.
        case delivered(Range<Int>)
        /// Nothing new is contiguous: a duplicate, a piece held out of order, or no CRYPTO frame.
        case nothingNew
        /// The stream is over budget or the frames were bad; it stays refused.
        case refused(Refusal)
    }

    package let budget: Budget
    /// Bytes from offset 0 received with no gap: `bytes(in: 0..<contiguousLength)` is the stream so far.
    package private(set) var contiguousLength = 0
    /// Initial packets given to `receive(frames:)`, refused ones excluded.
    package private(set) var packetsReceived = 0
    /// Set once the stream is refused; every later call answers with it.
    package private(set) var refusal: Refusal?
    /// Bytes up to the highest offset received; beyond `contiguousLength` only `pieces` are valid.
    private var buffer: [UInt8] = []
    /// Received runs past the contiguous prefix: sorted, disjoint, not touching one another.
    private var pieces: [Range<Int>] = []

    package init(budget: Budget = .default) {
        self.budget = budget
    }

    /// Takes the decrypted frames of one opened Initial (counted against `packetLimit`) and files
    /// every CRYPTO frame in it. A frame error refuses the stream, keeping what came before it.
    package mutating func receive(frames: Data) -> Progress {
        if let refusal { return .refused(refusal) }
        guard packetsReceived < budget.packetLimit else { return refuse(.tooManyPackets) }
        packetsReceived += 1
        let before = contiguousLength
        var reader = QUICFrameReader(payload: frames)
        do {
            while let frame = try reader.next() {
                let progress = frame.data.withUnsafeBytes { receive(offset: frame.offset, bytes: $0) }
                if case .refused = progress { return progress }
            }
        } catch {
            return refuse(.frames(error))
        }
        return contiguousLength > before ? .delivered(before..<contiguousLength) : .nothingNew
    }

    /// `receive(frames:)` of an opened packet.
    package mutating func receive(_ packet: QUICInitialPacket) -> Progress {
        receive(frames: packet.frames)
    }

    /// Files the data of one CRYPTO frame at `offset` (not counted as a packet).
    package mutating func receive(offset: UInt64, bytes: UnsafeRawBufferPointer) -> Progress {
        if let refusal { return .refused(refusal) }
        guard offset <= UInt64(budget.byteLimit), bytes.count <= budget.byteLimit - Int(offset) else {
            return refuse(.tooManyBytes)
        }
        let start = Int(offset)
        let end = start + bytes.count
        // Already delivered (or empty): nothing to keep.
        guard end > contiguousLength, start < end else { return .nothingNew }
        let lower = max(start, contiguousLength)
        growBuffer(to: end)
        fillGaps(lower..<end, from: bytes, streamStart: start)
        merge(lower..<end)
        // Stale pieces cannot linger: after a merge the first piece touches the prefix or not.
        let before = contiguousLength
        if let first = pieces.first, first.lowerBound <= contiguousLength {
            contiguousLength = first.upperBound
            pieces.removeFirst()
        }
        guard pieces.count <= budget.pieceLimit else { return refuse(.tooFragmented) }
        return contiguousLength > before ? .delivered(before..<contiguousLength) : .nothingNew
    }

    /// The contiguous bytes at `range` of the stream, clipped to what is contiguous.
    package func bytes(in range: Range<Int>) -> ArraySlice<UInt8> {
        buffer[clip(range)]
    }

    /// Calls `body` with the contiguous bytes at `range`, clipped to what is contiguous; no copy.
    package func withBytes<Result>(in range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        let clipped = clip(range)
        return try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[clipped])) }
    }

    private func clip(_ range: Range<Int>) -> Range<Int> {
        range.clamped(to: 0..<contiguousLength)
    }

    private mutating func refuse(_ reason: Refusal) -> Progress {
        refusal = reason
        return .refused(reason)
    }

    /// Grows the buffer to `end` bytes (≤ byteLimit), by doubling so a stream fed piece by piece
    /// reallocates a few times at most.
    private mutating func growBuffer(to end: Int) {
        guard end > buffer.count else { return }
        if end > buffer.capacity {
            buffer.reserveCapacity(min(budget.byteLimit, max(end, 2 * buffer.capacity, 2048)))
        }
        buffer.append(contentsOf: repeatElement(0, count: end - buffer.count))
    }

    /// Copies the parts of `range` no piece already holds; `bytes` starts at stream offset
    /// `streamStart`.
    private mutating func fillGaps(_ range: Range<Int>, from bytes: UnsafeRawBufferPointer, streamStart: Int) {
        var cursor = range.lowerBound
        let pieces = self.pieces
        buffer.withUnsafeMutableBytes { buffer in
            func copy(_ gap: Range<Int>) {
                guard !gap.isEmpty else { return }
                let source = UnsafeRawBufferPointer(rebasing: bytes[(gap.lowerBound - streamStart)..<(gap.upperBound - streamStart)])
                UnsafeMutableRawBufferPointer(rebasing: buffer[gap]).copyMemory(from: source)
            }
            for piece in pieces where piece.upperBound > cursor {
                if piece.lowerBound >= range.upperBound { break }
                copy(cursor..<max(cursor, piece.lowerBound))
                cursor = max(cursor, piece.upperBound)
            }
            if cursor < range.upperBound { copy(cursor..<range.upperBound) }
        }
    }

    /// Adds `range` to `pieces`, joining every piece it overlaps or touches.
    private mutating func merge(_ range: Range<Int>) {
        let first = pieces.firstIndex { $0.upperBound >= range.lowerBound } ?? pieces.endIndex
        var last = first
        var merged = range
        while last < pieces.endIndex, pieces[last].lowerBound <= range.upperBound {
            merged = min(merged.lowerBound, pieces[last].lowerBound)..<max(merged.upperBound, pieces[last].upperBound)
            last += 1
        }
        pieces.replaceSubrange(first..<last, with: CollectionOfOne(merged))
    }
}
