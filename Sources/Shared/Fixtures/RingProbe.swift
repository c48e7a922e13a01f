/// Records whose every field is derived from one index, so a reader can tell a whole record from
/// a torn one (fields from two different writes) and check order without keeping a copy. Used by
/// the ring's stress tests, its two-process test and its benchmark.
public enum RingProbe {
    public static func record(_ index: UInt64) -> PackedPacketMeta {
        let mixed = index &* 0x9E37_79B9_7F4A_7C15
        return PackedPacketMeta(
            timestamp: index,
            protoAndDirection: UInt8(truncatingIfNeeded: index % 5) << 4 | UInt8(truncatingIfNeeded: index & 1),
            ipVersion: index & 2 == 0 ? 4 : 6,
            tcpFlags: UInt8(truncatingIfNeeded: mixed >> 56),
            portA: UInt16(truncatingIfNeeded: mixed >> 8), portB: UInt16(truncatingIfNeeded: mixed >> 24),
            addrA: PackedAddress(high: mixed, low: ~mixed), addrB: PackedAddress(high: ~index, low: mixed ^ index),
            length: UInt32(truncatingIfNeeded: mixed >> 32),
            capture: index % 3 == 0 ? nil : CaptureLocation(fileSequence: UInt32(truncatingIfNeeded: index >> 7),
                                                             recordOffset: index &+ 24))
    }

    /// The index a record was made from, or nil when any field disagrees with its timestamp.
    public static func index(of record: PackedPacketMeta) -> UInt64? {
        record == self.record(record.timestamp) ? record.timestamp : nil
    }
}
