/// A bounds-checked reader of DER TLVs (ITU-T X.690 §8.1, §10.1) over a slice of a larger buffer:
/// every element's content is a slice of the same storage, never a copy, and its indices are the
/// buffer's own.
///
/// Grammar read:
///   identifier: class(2 bits) · constructed(1 bit) · number(5 bits); number 31 means the number
///               follows in base-128 bytes, the last without bit 8 (§8.1.2.4) — at most 4 here
///   length:     < 0x80 short form; 0x81…0x84 then that many big-endian bytes (§8.1.3.5);
///               0x80 is the indefinite form, which DER forbids (§10.1); longer forms are refused
///   content:    length bytes, which must all be present
package struct DERReader: Sendable {
    package struct Tag: Sendable, Hashable {
        /// 0 universal, 1 application, 2 context-specific, 3 private (§8.1.2.2).
        package let tagClass: UInt8
        package let isConstructed: Bool
        package let number: UInt32

        package init(tagClass: UInt8, isConstructed: Bool, number: UInt32) {
            self.tagClass = tagClass
            self.isConstructed = isConstructed
            self.number = number
        }

        package static func universal(_ number: UInt32, constructed: Bool = false) -> Tag {
            Tag(tagClass: 0, isConstructed: constructed, number: number)
        }

        package static func contextSpecific(_ number: UInt32, constructed: Bool) -> Tag {
            Tag(tagClass: 2, isConstructed: constructed, number: number)
        }

        package static let integer = universal(2)
        package static let bitString = universal(3)
        package static let objectIdentifier = universal(6)
        package static let sequence = universal(16, constructed: true)
        package static let set = universal(17, constructed: true)
        package static let utcTime = universal(23)
        package static let generalizedTime = universal(24)
    }

    package struct Element: Sendable, Equatable {
        package let tag: Tag
        /// The content octets.
        package let content: ArraySlice<UInt8>
        /// The whole TLV as it was encoded: identifier, length and content.
        package let encoded: ArraySlice<UInt8>
    }

    /// Why an element could not be read. The caller treats the enclosing structure as unreadable.
    package enum Failure: Error, Sendable, Equatable {
        /// The identifier or length octets end before they are complete.
        case truncatedHeader
        /// A high tag number longer than 4 bytes, or encoded with a leading zero group.
        case unsupportedTagNumber
        /// The indefinite length form (0x80).
        case indefiniteLength
        /// A long-form length of more than four bytes (or the reserved 0xFF).
        case lengthTooLong(lengthBytes: Int)
        /// The length declares more content than the buffer holds.
        case lengthBeyondBuffer(declared: Int, available: Int)
    }

    private let bytes: ArraySlice<UInt8>
    /// Where the next element starts, in the buffer's indices.
    package private(set) var index: Int

    package init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    package var isAtEnd: Bool { index == bytes.endIndex }

    /// Reads the next element and steps past it; on failure nothing is consumed.
    package mutating func read() throws(Failure) -> Element {
        let (tag, contentStart, length) = try header()
        let available = bytes.endIndex - contentStart
        guard available >= length else { throw .lengthBeyondBuffer(declared: length, available: available) }
        let element = Element(tag: tag, content: bytes[contentStart..<(contentStart + length)],
                              encoded: bytes[index..<(contentStart + length)])
        index = contentStart + length
        return element
    }

    /// Enters the next element when it has `tag`, even if its content runs past the buffer (a
    /// certificate whose beginning alone was kept): the content as far as the buffer holds it, and
    /// the length it declared. Steps past the element only when it was whole; nil on a mismatch or
    /// an unreadable header.
    mutating func readBeginning(_ tag: Tag) -> (content: ArraySlice<UInt8>, declaredLength: Int)? {
        guard let (found, contentStart, length) = try? header(), found == tag else { return nil }
        let end = min(bytes.endIndex, contentStart + length)
        index = end
        return (bytes[contentStart..<end], length)
    }

    /// The next element's tag, where its content starts and the length it declares.
    private func header() throws(Failure) -> (tag: Tag, contentStart: Int, length: Int) {
        var cursor = index
        let end = bytes.endIndex
        guard cursor < end else { throw .truncatedHeader }
        let first = bytes[cursor]
        cursor += 1
        var number = UInt32(first & 0x1F)
        if number == 0x1F {
            number = 0
            var groups = 0
            while true {
                guard cursor < end else { throw .truncatedHeader }
                let byte = bytes[cursor]
                cursor += 1
                if groups == 0, byte == 0x80 { throw .unsupportedTagNumber }
                groups += 1
                guard groups <= 4 else { throw .unsupportedTagNumber }
                number = number << 7 | UInt32(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
        }
        guard cursor < end else { throw .truncatedHeader }
        let lengthByte = bytes[cursor]
        cursor += 1
        var length = Int(lengthByte)
        if lengthByte == 0x80 { throw .indefiniteLength }
        if lengthByte > 0x80 {
            let lengthBytes = Int(lengthByte & 0x7F)
            guard lengthBytes <= 4 else { throw .lengthTooLong(lengthBytes: lengthBytes) }
            guard end - cursor >= lengthBytes else { throw .truncatedHeader }
            length = 0
            for _ in 0..<lengthBytes {
                length = length << 8 | Int(bytes[cursor])
                cursor += 1
            }
        }
        return (Tag(tagClass: first >> 6, isConstructed: first & 0x20 != 0, number: number), cursor, length)
    }

    /// Reads the next element and checks its tag; a tag mismatch consumes nothing and answers nil,
    /// as does a failure.
    package mutating func read(_ tag: Tag) -> Element? {
        var probe = self
        let element: Element
        do { element = try probe.read() } catch { return nil }
        guard element.tag == tag else { return nil }
        self = probe
        return element
    }
}
