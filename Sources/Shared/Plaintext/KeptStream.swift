/// One direction of an inspected conversation as it was kept: the kept bytes in order, and the
/// gaps between them — runs the budget did not keep (`PlaintextBudget`), each at its place. A
/// reader of an application protocol walks it with `KeptStream.Reader`, so that a body the budget
/// cut is passed over by its length and the next message is read where it really begins.
package struct KeptStream: Sendable, Equatable {
    /// Every kept byte, end to end.
    package private(set) var bytes: [UInt8] = []
    /// After the first `at` kept bytes, `length` bytes were not kept. In order; gaps at one place
    /// are joined.
    package private(set) var gaps: [Gap] = []

    package struct Gap: Sendable, Equatable {
        package let at: Int
        package internal(set) var length: Int
    }

    package init(_ bytes: [UInt8] = []) {
        self.bytes = bytes
    }

    /// Appends a record: `kept` bytes, then `dropped` bytes not kept.
    package mutating func append(_ kept: some Sequence<UInt8>, dropped: Int) {
        bytes.append(contentsOf: kept)
        guard dropped > 0 else { return }
        if let last = gaps.last, last.at == bytes.count {
            gaps[gaps.count - 1].length += dropped
        } else {
            gaps.append(Gap(at: bytes.count, length: dropped))
        }
    }

    /// Appends `other` after everything here, its gaps with it.
    package mutating func append(contentsOf other: KeptStream) {
        var start = 0
        for gap in other.gaps {
            append(other.bytes[start..<gap.at], dropped: gap.length)
            start = gap.at
        }
        append(other.bytes[start...], dropped: 0)
    }

    /// The same stream without its first `count` kept bytes; nil when a gap comes before them.
    package func droppingFirst(_ count: Int) -> KeptStream? {
        guard count <= bytes.count, gaps.first.map({ $0.at >= count }) ?? true else { return nil }
        var rest = KeptStream(Array(bytes[count...]))
        rest.gaps = gaps.map { Gap(at: $0.at - count, length: $0.length) }
        return rest
    }

    /// The kept bytes from `offset` up to the next gap or the end.
    package func run(from offset: Int) -> ArraySlice<UInt8> {
        let end = gaps.first { $0.at >= offset }?.at ?? bytes.count
        return bytes[min(offset, bytes.count)..<max(min(offset, bytes.count), end)]
    }

    /// Some of this direction was not kept.
    package var hasGaps: Bool { !gaps.isEmpty }
    /// The bytes this direction carried, kept or not.
    package var carried: Int { bytes.count + gaps.reduce(0) { $0 + $1.length } }

    /// Reads a kept stream front to back in the conversation's own positions.
    package struct Reader: Sendable {
        package let stream: KeptStream
        /// How many kept bytes are behind.
        package private(set) var offset = 0
        private var gapIndex = 0
        /// Of the gap at `offset`, how much is behind.
        private var gapUsed = 0

        package init(_ stream: KeptStream) {
            self.stream = stream
        }

        private var nextGap: Gap? { gapIndex < stream.gaps.count ? stream.gaps[gapIndex] : nil }

        /// The kept bytes from here to the next gap or the end.
        package var run: ArraySlice<UInt8> {
            if let gap = nextGap, gap.at == offset { return stream.bytes[offset..<offset] }
            return stream.bytes[offset..<(nextGap?.at ?? stream.bytes.count)]
        }

        /// What is left of a gap that begins here; nil when kept bytes (or the end) come first.
        package var gapHere: Int? {
            guard let gap = nextGap, gap.at == offset else { return nil }
            return gap.length - gapUsed
        }

        /// Nothing is left, kept or not.
        package var atEnd: Bool { offset == stream.bytes.count && nextGap == nil }

        /// What `take` found.
        package struct Taken: Sendable, Equatable {
            /// The kept bytes at the front, up to the first gap.
            package let front: ArraySlice<UInt8>
            /// Bytes that were not kept (gaps), and kept bytes after the first gap, passed over.
            package let notKept: Int
            package let keptAfterGap: Int
            /// Bytes the stream ended before: it was never given them.
            package let missing: Int

            package var isWhole: Bool { notKept == 0 && keptAfterGap == 0 && missing == 0 }
            /// The bytes passed over that the stream had, kept or not.
            package var carriedCount: Int { front.count + notKept + keptAfterGap }
        }

        /// Passes over the next `count` bytes of the conversation.
        package mutating func take(_ count: Int) -> Taken {
            var left = count
            let front = run.prefix(left)
            var notKept = 0, keptAfterGap = 0, first = true
            while left > 0, !atEnd {
                if let gap = gapHere {
                    let used = min(left, gap)
                    gapUsed += used
                    notKept += used
                    left -= used
                    if gapUsed == nextGap?.length { gapIndex += 1; gapUsed = 0 }
                } else {
                    let used = min(left, run.count)
                    if !first { keptAfterGap += used }
                    offset += used
                    left -= used
                }
                first = false
            }
            return Taken(front: front, notKept: notKept, keptAfterGap: keptAfterGap, missing: left)
        }

        /// Passes over everything left.
        package mutating func takeRest() -> Taken {
            let rest = stream.bytes.count - offset + stream.gaps[gapIndex...].reduce(0) { $0 + $1.length } - gapUsed
            return take(rest)
        }
    }
}
