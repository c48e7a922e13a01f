/// One interface a pcapng section describes: its link type, snaplen and clock.
package struct PcapngInterface: Sendable, Hashable {
    package let linkType: UInt32
    /// 0 means no limit.
    package let snaplen: UInt32
    package let timestampResolution: PcapngTimestampResolution
    /// `if_tsoffset`: seconds added to every timestamp of the interface.
    package let timestampOffsetSeconds: Int64

    package init(linkType: UInt32, snaplen: UInt32,
                timestampResolution: PcapngTimestampResolution = .decimal(PcapngBlock.defaultTimestampResolution),
                timestampOffsetSeconds: Int64 = 0) {
        self.linkType = linkType
        self.snaplen = snaplen
        self.timestampResolution = timestampResolution
        self.timestampOffsetSeconds = timestampOffsetSeconds
    }

    /// The instant of a packet stamped `ticks` on this interface, in nanoseconds since 1970
    /// (clamped to Int64's range rather than wrapped).
    package func nanosecondsSince1970(ticks: UInt64) -> Int64 {
        let (seconds, nanoseconds) = timestampResolution.split(ticks)
        let (whole, overflow) = Int64(clamping: seconds).addingReportingOverflow(timestampOffsetSeconds)
        guard !overflow else { return timestampOffsetSeconds < 0 ? .min : .max }
        let (scaled, scaleOverflow) = whole.multipliedReportingOverflow(by: 1_000_000_000)
        guard !scaleOverflow else { return whole < 0 ? .min : .max }
        let (sum, sumOverflow) = scaled.addingReportingOverflow(Int64(nanoseconds))
        return sumOverflow ? .max : sum
    }
}

/// `if_tsresol`: ticks of 10^-n or 2^-n seconds.
package enum PcapngTimestampResolution: Sendable, Hashable {
    case decimal(UInt8)
    case binary(UInt8)

    /// The option's byte: top bit clear for a power of ten, set for a power of two. nil when finer
    /// than anything a UInt64 of ticks can carry (beyond 10^-19 or 2^-63).
    package init?(optionByte: UInt8) {
        let exponent = optionByte & 0x7F
        if optionByte & 0x80 == 0 {
            guard exponent <= 19 else { return nil }
            self = .decimal(exponent)
        } else {
            guard exponent <= 63 else { return nil }
            self = .binary(exponent)
        }
    }

    /// Finer than a microsecond: timestamps are shown with nine digits.
    package var isFinerThanMicroseconds: Bool {
        switch self {
        case let .decimal(exponent): exponent > 6
        case let .binary(exponent): exponent > 20   // 2^-20 s ≈ 0.95 µs
        }
    }

    /// Whole seconds and the nanoseconds past them (rounded down) of `ticks`.
    func split(_ ticks: UInt64) -> (seconds: UInt64, nanoseconds: UInt64) {
        switch self {
        case let .decimal(exponent):
            let perSecond = Self.powerOfTen(Int(exponent))
            let fraction = ticks % perSecond
            let nanoseconds = exponent <= 9
                ? fraction * Self.powerOfTen(9 - Int(exponent))
                : fraction / Self.powerOfTen(Int(exponent) - 9)
            return (ticks / perSecond, nanoseconds)
        case let .binary(exponent):
            let fraction = ticks & ((1 << UInt64(exponent)) &- 1)
            // fraction × 10^9 / 2^n in 128 bits: the product overflows 64 past n = 34.
            let product = fraction.multipliedFullWidth(by: 1_000_000_000)
            let nanoseconds = exponent == 0 ? 0
                : (product.low >> UInt64(exponent)) | (exponent == 64 ? 0 : product.high << (64 - UInt64(exponent)))
            return (ticks >> UInt64(exponent), nanoseconds)
        }
    }

    private static func powerOfTen(_ exponent: Int) -> UInt64 {
        var value: UInt64 = 1
        for _ in 0..<exponent { value *= 10 }
        return value
    }
}
