/// A TCP sequence number: 32 bits that wrap, so "before" and "after" are serial arithmetic
/// (RFC 1982 §3.2, RFC 9293 §3.4): `a < b` when `b` is ahead of `a` by less than 2³¹.
///
/// The relay compares sequence numbers only through this type, so no raw `UInt32` comparison can
/// slip in and fail at the wrap. The order is not transitive over spans of 2³¹ or more; every
/// comparison the relay makes stays within one window (far below 2³⁰), where it is exact.
package struct SequenceNumber: Sendable, Hashable, Comparable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    package let rawValue: UInt32

    package init(_ rawValue: UInt32) { self.rawValue = rawValue }
    package init(integerLiteral value: UInt32) { rawValue = value }

    /// `lhs` advanced by `count` octets (negative goes back), wrapping at 2³².
    package static func + (lhs: SequenceNumber, count: Int) -> SequenceNumber {
        SequenceNumber(lhs.rawValue &+ UInt32(truncatingIfNeeded: count))
    }

    package static func += (lhs: inout SequenceNumber, count: Int) { lhs = lhs + count }

    /// How far `lhs` is ahead of `rhs`: positive when ahead, negative when behind.
    package static func - (lhs: SequenceNumber, rhs: SequenceNumber) -> Int {
        Int(Int32(bitPattern: lhs.rawValue &- rhs.rawValue))
    }

    package static func < (lhs: SequenceNumber, rhs: SequenceNumber) -> Bool { lhs - rhs < 0 }

    package var description: String { String(rawValue) }
}
