import Foundation

/// Bytes written as hex, as RFCs and oracles print them: pairs of digits, white space between
/// groups ignored ("8286 8441"). Test vectors only: a digit that is not hex is a broken vector.
package enum HexText {
    package static func bytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.utf8.count / 2)
        var high: UInt8?
        for character in hex.utf8 where !(character == 0x20 || character == 0x0a || character == 0x09) {
            let nibble = character <= 57 ? character &- 48 : (character | 0x20) &- 87
            precondition(nibble < 16, "not a hex digit in a test vector: \(character)")
            if let first = high { bytes.append(first << 4 | nibble); high = nil } else { high = nibble }
        }
        precondition(high == nil, "an odd number of hex digits in a test vector")
        return bytes
    }

    package static func data(_ hex: String) -> Data { Data(bytes(hex)) }
}
