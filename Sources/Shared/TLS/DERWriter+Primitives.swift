/// The universal primitives a certificate needs, each under its X.690 rule.
extension DERWriter {
    /// INTEGER (§8.3) from a non-negative magnitude in big-endian bytes (a serial number): leading
    /// zero bytes dropped, one zero put back when the top bit is set so it stays positive, and
    /// zero written as the single byte 00 — the shortest two's complement (§8.3.2).
    package mutating func integer(magnitude: some Collection<UInt8>) {
        var content = Array(magnitude.drop { $0 == 0 })
        if content.first.map({ $0 & 0x80 != 0 }) ?? true { content.insert(0, at: 0) }
        append(.integer, content: content)
    }

    /// INTEGER (§8.3) from a machine integer, negative ones included: the shortest two's
    /// complement, i.e. no first byte that is all sign bits above a byte of the same sign (§8.3.2).
    package mutating func integer(_ value: Int) {
        var content: [UInt8] = []
        var rest = value
        repeat {
            content.insert(UInt8(truncatingIfNeeded: rest), at: 0)
            rest >>= 8
        } while !(rest == 0 && content[0] & 0x80 == 0) && !(rest == -1 && content[0] & 0x80 != 0)
        append(.integer, content: content)
    }

    /// BOOLEAN (§8.2); DER writes TRUE as FF (§11.1).
    package mutating func boolean(_ value: Bool) {
        append(.universal(1), content: [value ? 0xFF : 0x00])
    }

    /// NULL (§8.8): no content.
    package mutating func null() {
        append(.universal(5), content: [])
    }

    /// OCTET STRING (§8.7), primitive as DER requires (§10.2).
    package mutating func octetString(_ content: some Collection<UInt8>) {
        append(.universal(4), content: content)
    }

    /// BIT STRING (§8.6): the count of unused bits in the last byte (0…7, and 0 when empty), then
    /// the bytes; DER wants those unused bits zero (§11.2.1), which is the caller's to give.
    package mutating func bitString(_ content: some Collection<UInt8>, unusedBits: UInt8 = 0) {
        precondition(unusedBits < 8 && (unusedBits == 0 || !content.isEmpty), "a BIT STRING has 0…7 unused bits, 0 when empty")
        append(.bitString, content: [unusedBits] + Array(content))
    }

    /// A named-bit BIT STRING (KeyUsage, RFC 5280 §4.2.1.3) from the numbers of its set bits, bit 0
    /// the first byte's most significant: trailing zero bits are dropped, as DER wants of a named
    /// bit list (X.690 §11.2.2).
    package mutating func namedBits(_ bits: Set<Int>) {
        guard let highest = bits.max() else {
            bitString([])
            return
        }
        var content = [UInt8](repeating: 0, count: highest / 8 + 1)
        for bit in bits { content[bit / 8] |= 0x80 >> UInt8(bit % 8) }
        bitString(content, unusedBits: UInt8(7 - highest % 8))
    }

    /// UTF8String (tag 12): what RFC 5280 §4.1.2.4 asks new certificates to use for names.
    package mutating func utf8String(_ text: String) {
        append(.universal(12), content: Array(text.utf8))
    }

    /// PrintableString (tag 19, X.680 §41.4): A–Z a–z 0–9 space ' ( ) + , - . / : = ? only.
    package mutating func printableString(_ text: String) throws(DERWriterFailure) {
        guard text.utf8.allSatisfy(Self.isPrintable) else { throw .notPrintable(text) }
        append(.universal(19), content: Array(text.utf8))
    }

    /// IA5String (tag 22): ASCII (a dNSName's content type, RFC 5280 §4.2.1.6).
    package mutating func ia5String(_ text: String) throws(DERWriterFailure) {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { throw .notIA5(text) }
        append(.universal(22), content: Array(text.utf8))
    }

    private static func isPrintable(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: Array(" '()+,-./:=?".utf8).contains(byte)
        }
    }
}

/// Why a value cannot be written in the type asked for. Nothing was appended; the caller picks
/// another type or refuses the value.
package enum DERWriterFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// Dotted text that is not an OBJECT IDENTIFIER (X.660): fewer than two arcs, an arc that is not
    /// a decimal number, a first arc above 2, or a second arc of 40 or more under 0 or 1.
    case invalidObjectIdentifier(String)
    /// A character outside PrintableString's set.
    case notPrintable(String)
    /// A character outside ASCII.
    case notIA5(String)
    /// A time before year 0 or after 9999, which neither UTCTime nor GeneralizedTime can hold.
    case timeOutOfRange(Double)

    package var description: String {
        switch self {
        case let .invalidObjectIdentifier(text): "\"\(text)\" is not an object identifier (dotted decimal arcs, the first 0, 1 or 2)"
        case let .notPrintable(text): "\"\(text)\" has a character a PrintableString cannot hold"
        case let .notIA5(text): "\"\(text)\" has a character outside ASCII"
        case let .timeOutOfRange(seconds): "\(seconds) s after 1970 is outside the years 0…9999 a certificate time can hold"
        }
    }
}
