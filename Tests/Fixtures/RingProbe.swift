import Shared

/// Records whose every field is derived from one index, so a reader can tell a whole record from
/// a torn one (fields from two different writes) and check order without keeping a copy. Used by
/// the ring's stress tests, its two-process test and its benchmark.
///
/// The fields other than the timestamp repeat with a prime period, read from a table, so making a
/// record costs a copy rather than arithmetic (the benchmark measures the ring, not the probe).
/// A prime period never divides a power-of-two ring, so two records that could share a slot —
/// a multiple of the slot count apart — never share their fields, and a mix of them is caught.
package enum RingProbe {
    static let period = 1021

    private static let table: [PackedPacketMeta] = (0..<UInt64(period)).map(makeRecord)

    package static func record(_ index: UInt64) -> PackedPacketMeta {
        var record = table[Int(index % UInt64(period))]
        record.timestamp = index
        return record
    }

    /// The index a record was made from, or nil when any field disagrees with its timestamp.
    package static func index(of record: PackedPacketMeta) -> UInt64? {
        record == self.record(record.timestamp) ? record.timestamp : nil
    }

    private static func makeRecord(_ key: UInt64) -> PackedPacketMeta {
        let mixed = (key &+ 1) &* 0x9E37_79B9_7F4A_7C15
        return PackedPacketMeta(
            timestamp: key,
            protoAndDirection: UInt8(truncatingIfNeeded: key % 5) << 4 | UInt8(truncatingIfNeeded: key & 1),
            ipVersion: key & 2 == 0 ? 4 : 6,
            tcpFlags: UInt8(truncatingIfNeeded: mixed >> 56),
            portA: UInt16(truncatingIfNeeded: mixed >> 8), portB: UInt16(truncatingIfNeeded: mixed >> 24),
            addrA: PackedAddress(high: mixed, low: ~mixed), addrB: PackedAddress(high: ~key, low: mixed ^ key),
            length: UInt32(truncatingIfNeeded: mixed >> 32),
            capture: key % 3 == 0 ? nil : CaptureLocation(fileSequence: UInt32(truncatingIfNeeded: key >> 3),
                                                           recordOffset: key &+ 24))
    }
}
