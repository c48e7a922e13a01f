/// A cursor over the start of a proxy handshake, for grammars read in one pass: running out of
/// bytes and meeting a byte the grammar refuses are the two ways a read stops, thrown as such.
struct ProxyCursor {
    enum Stop: Error, Equatable { case needMoreBytes, notMine }

    private let bytes: UnsafeRawBufferPointer
    private(set) var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func byte() throws(Stop) -> UInt8 {
        guard offset < bytes.count else { throw .needMoreBytes }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next byte, left unread.
    func peek() throws(Stop) -> UInt8 {
        guard offset < bytes.count else { throw .needMoreBytes }
        return bytes[offset]
    }

    /// Steps over the byte `peek` returned.
    mutating func skipPeeked() { offset += 1 }

    mutating func expect(_ value: UInt8) throws(Stop) {
        guard try byte() == value else { throw .notMine }
    }

    /// CR LF, and nothing else (RFC 9112 §2.2: a bare LF is not taken for a line end here).
    mutating func expectLineEnd() throws(Stop) {
        try expect(UInt8(ascii: "\r"))
        try expect(UInt8(ascii: "\n"))
    }

    /// The rest of a line, then its CR LF. Its text is not ours to judge beyond no bare CR or LF
    /// and no control byte but HTAB (RFC 9110 §5.5).
    mutating func skipLine() throws(Stop) {
        while try peek() != UInt8(ascii: "\r") {
            let byte = try byte()
            guard byte >= 0x20 || byte == 0x09, byte != 0x7F else { throw .notMine }
        }
        try expectLineEnd()
    }

    /// Header lines up to and including the empty line that ends them (RFC 9112 §2.1).
    mutating func skipHeaderLines() throws(Stop) {
        while try peek() != UInt8(ascii: "\r") { try skipLine() }
        try expectLineEnd()
    }

    mutating func uint16() throws(Stop) -> UInt16 {
        UInt16(try byte()) << 8 | UInt16(try byte())
    }

    /// The next `count` bytes, without copying.
    mutating func bytes(_ count: Int) throws(Stop) -> UnsafeRawBufferPointer {
        guard bytes.count - offset >= count else { throw .needMoreBytes }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
    }

    /// The bytes up to the next NUL, which is read and not returned.
    mutating func nulTerminated() throws(Stop) -> UnsafeRawBufferPointer {
        let start = offset
        while try byte() != 0 {}
        return UnsafeRawBufferPointer(rebasing: bytes[start..<(offset - 1)])
    }

    /// The bytes from `start` to the cursor.
    func slice(from start: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[start..<offset])
    }
}
