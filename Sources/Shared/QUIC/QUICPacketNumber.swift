/// Packet numbers (RFC 9000 §17.1): sent truncated to their 1–4 low bytes, and expanded by the
/// receiver to the value closest to the one it expects next.
package enum QUICPacketNumber {
    /// The largest packet number a connection may use (RFC 9000 §12.3): 2^62 − 1.
    package static let maximum: UInt64 = (1 << 62) - 1

    /// The full packet number whose low `byteCount` bytes are `truncated`, chosen within half a
    /// window of the number after `largestProcessed` (RFC 9000 Appendix A.3). With no packet
    /// processed yet the expected number is 0.
    ///
    /// nil when `byteCount` is not 1...4, `truncated` does not fit in `byteCount` bytes,
    /// `largestProcessed` is beyond `maximum`, or the result would be.
    package static func decode(truncated: UInt64, byteCount: Int, largestProcessed: UInt64?) -> UInt64? {
        guard (1...4).contains(byteCount) else { return nil }
        let window: UInt64 = 1 << UInt64(8 * byteCount)
        guard truncated < window else { return nil }
        let expected: UInt64
        if let largestProcessed {
            guard largestProcessed < maximum else { return nil }
            expected = largestProcessed + 1
        } else {
            expected = 0
        }
        let halfWindow = window / 2
        let candidate = (expected & ~(window - 1)) | truncated
        // The RFC's comparisons, rearranged so no unsigned value goes below zero.
        let decoded: UInt64
        if candidate + halfWindow <= expected, candidate < (1 << 62) - window {
            decoded = candidate + window
        } else if candidate > expected + halfWindow, candidate >= window {
            decoded = candidate - window
        } else {
            decoded = candidate
        }
        return decoded <= maximum ? decoded : nil
    }
}
