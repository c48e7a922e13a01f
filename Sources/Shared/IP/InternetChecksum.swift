/// The Internet checksum (RFC 1071): the one's complement of the one's complement sum of 16-bit
/// big-endian words, an odd trailing byte padded with zero. Fed in pieces, a piece may end on an odd
/// byte and the next continue the word.
package struct InternetChecksum: Sendable {
    /// Sum of 32-bit big-endian words; 2^16 ≡ 1 (mod 0xFFFF), so folding it gives the 16-bit sum.
    private var sum: UInt64 = 0
    /// The previous piece ended on the high byte of a word.
    private var pendingLowByte = false

    package init() {}

    package mutating func add(_ bytes: UnsafeRawBufferPointer) {
        guard var pointer = bytes.baseAddress, bytes.count > 0 else { return }
        var remaining = bytes.count
        if pendingLowByte {
            sum &+= UInt64(pointer.load(as: UInt8.self))
            pointer += 1
            remaining -= 1
            pendingLowByte = false
        }
        // The bulk in native-order 32-bit words, each added whole into 64-bit lanes: a one's
        // complement sum is the same in either byte order up to a final swap (RFC 1071 §2(B)),
        // and 2^32 ≡ 1 (mod 0xFFFF) as 2^16 is, so the lanes fold to the 16-bit sum. Four
        // independent lanes with no carry to chase let the compiler vectorize the loop (it was a
        // serial add-with-carry chain, 8 bytes a step). A block is small enough that no lane
        // can overflow (`laneBlockBytes`).
        while remaining >= 16 {
            let block = min(remaining, Self.laneBlockBytes) & ~15
            var lanes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            var offset = 0
            while offset < block {
                lanes.0 &+= UInt64(pointer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                lanes.1 &+= UInt64(pointer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
                lanes.2 &+= UInt64(pointer.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self))
                lanes.3 &+= UInt64(pointer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                offset += 16
            }
            let native = lanes.0 &+ lanes.1 &+ lanes.2 &+ lanes.3     // each below 2^58
            sum &+= UInt64(UInt16(bigEndian: Self.fold(native)))
            pointer += block
            remaining -= block
        }
        while remaining >= 4 {
            sum &+= UInt64(UInt32(bigEndian: pointer.loadUnaligned(as: UInt32.self)))
            pointer += 4
            remaining -= 4
        }
        if remaining >= 2 {
            sum &+= UInt64(UInt16(bigEndian: pointer.loadUnaligned(as: UInt16.self)))
            pointer += 2
            remaining -= 2
        }
        if remaining == 1 {
            sum &+= UInt64(pointer.load(as: UInt8.self)) << 8
            pendingLowByte = true
        }
    }

    package mutating func add<C: Collection>(bytes: C) where C.Element == UInt8 {
        if let done: Void = bytes.withContiguousStorageIfAvailable({ add(UnsafeRawBufferPointer($0)) }) {
            return done
        }
        add(bytes: Array(bytes))
    }

    /// Adds one 16-bit word in host order (a pseudo-header field, say). Must fall on a word boundary.
    package mutating func add(word: UInt16) {
        precondition(!pendingLowByte, "a word added in the middle of a word")
        sum &+= UInt64(word)
    }

    /// The 16-bit one's complement sum of everything added.
    package var onesComplementSum: UInt16 { Self.fold(sum) }

    /// The checksum to store in the header: the complement of the sum.
    package var value: UInt16 { ~onesComplementSum }

    /// Finishes a checksum left partial (the pseudo-header's sum at `start + offset`), as a NIC
    /// with checksum offload does and Linux's skb_checksum_help: the sum from `start` to the end,
    /// the field included, complemented into the field. A range that does not fit is left alone.
    package static func completePartial(in datagram: UnsafeMutableRawBufferPointer, start: Int, offset: Int) {
        guard start >= 0, offset >= 0, start + offset + 2 <= datagram.count else { return }
        let value = checksum(UnsafeRawBufferPointer(rebasing: datagram[start...]))
        datagram.storeBytes(of: value.bigEndian, toByteOffset: start + offset, as: UInt16.self)
    }

    package static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt16 {
        var checksum = InternetChecksum()
        checksum.add(bytes)
        return checksum.value
    }

    /// The checksum after one 16-bit word of the covered data changes from `old` to `new`, without
    /// re-summing (RFC 1624 §3, equation 3: HC' = ~(~HC + ~m + m')).
    package static func updated(_ checksum: UInt16, replacing old: UInt16, with new: UInt16) -> UInt16 {
        ~fold(UInt64(~checksum) + UInt64(~old) + UInt64(new))
    }

    /// Bytes summed into the lanes before they are folded: 2^30, so each lane adds at most 2^26
    /// words of under 2^32 and stays below 2^58.
    private static let laneBlockBytes = 1 << 30

    private static func fold(_ value: UInt64) -> UInt16 {
        var folded = value
        while folded > 0xFFFF { folded = (folded & 0xFFFF) + (folded >> 16) }
        return UInt16(folded)
    }
}
