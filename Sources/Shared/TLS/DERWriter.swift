/// An append-only DER serializer (ITU-T X.690 §8, §10), the writing side of `DERReader`: each
/// element is appended whole — identifier, definite length in its shortest form, content — and a
/// constructed element's content is written by a closure into a child writer, so its length is
/// known before it is appended (no placeholder to fix up, nothing to patch).
///
/// Grammar written:
///   identifier: class(2 bits) · constructed(1 bit) · number(5 bits); numbers ≥ 31 in the
///               high-tag form, base-128 (§8.1.2.4)
///   length:     < 0x80 the short form; otherwise 0x81…0x84 and that many big-endian bytes, the
///               fewest that hold it (§8.1.3.5, §10.1)
///   content:    as each primitive's method says (the §8 rule at each)
package struct DERWriter: Sendable, Equatable {
    package typealias Tag = DERReader.Tag

    /// Everything written so far.
    package private(set) var bytes: [UInt8] = []

    package init() {}

    /// Appends one TLV with `content` as its content octets.
    package mutating func append(_ tag: Tag, content: some Collection<UInt8>) {
        appendIdentifier(tag)
        appendLength(content.count)
        bytes.append(contentsOf: content)
    }

    /// Appends an already encoded element (or several) verbatim: a SubjectPublicKeyInfo from
    /// OpenSSL, a Name built once and reused as both subject and issuer.
    mutating func appendEncoded(_ encoded: some Collection<UInt8>) {
        bytes.append(contentsOf: encoded)
    }

    /// Appends a constructed element whose content `body` writes.
    package mutating func constructed<Failure: Error>(_ tag: Tag, _ body: (inout DERWriter) throws(Failure) -> Void) throws(Failure) {
        var child = DERWriter()
        try body(&child)
        append(Tag(tagClass: tag.tagClass, isConstructed: true, number: tag.number), content: child.bytes)
    }

    /// SEQUENCE (§8.9).
    package mutating func sequence<Failure: Error>(_ body: (inout DERWriter) throws(Failure) -> Void) throws(Failure) {
        try constructed(.sequence, body)
    }

    /// SET (§8.11). DER wants SET OF members sorted (§11.6); a caller writing several members
    /// writes them in order — every SET here holds one.
    package mutating func set<Failure: Error>(_ body: (inout DERWriter) throws(Failure) -> Void) throws(Failure) {
        try constructed(.set, body)
    }

    /// An explicitly tagged `[number]` (§8.14.2): the inner elements inside a constructed context tag.
    package mutating func explicit<Failure: Error>(_ number: UInt32, _ body: (inout DERWriter) throws(Failure) -> Void) throws(Failure) {
        try constructed(.contextSpecific(number, constructed: true), body)
    }

    /// An implicitly tagged primitive `[number]` (§8.14.3): the content of the type it replaces.
    package mutating func implicit(_ number: UInt32, content: some Collection<UInt8>) {
        append(.contextSpecific(number, constructed: false), content: content)
    }

    private mutating func appendIdentifier(_ tag: Tag) {
        let leading = tag.tagClass << 6 | (tag.isConstructed ? 0x20 : 0)
        guard tag.number >= 31 else {
            bytes.append(leading | UInt8(tag.number))
            return
        }
        bytes.append(leading | 0x1F)
        bytes.append(contentsOf: Self.base128(UInt64(tag.number)))
    }

    private mutating func appendLength(_ length: Int) {
        guard length >= 0x80 else {
            bytes.append(UInt8(length))
            return
        }
        var bigEndian: [UInt8] = []
        var rest = length
        while rest > 0 {
            bigEndian.insert(UInt8(truncatingIfNeeded: rest), at: 0)
            rest >>= 8
        }
        bytes.append(0x80 | UInt8(bigEndian.count))
        bytes.append(contentsOf: bigEndian)
    }

    /// `value` in base 128, most significant group first, every byte but the last with bit 8 set
    /// (§8.1.2.4.2, §8.19.2).
    static func base128(_ value: UInt64) -> [UInt8] {
        var groups: [UInt8] = [UInt8(value & 0x7F)]
        var rest = value >> 7
        while rest > 0 {
            groups.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return groups
    }
}
