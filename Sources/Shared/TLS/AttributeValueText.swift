/// The text of an attribute value in a distinguished name, escaped so that the name's text cannot
/// be misread.
///
/// Decoding, by the value's universal tag: UTF8String (12), and PrintableString (19), IA5String
/// (22), NumericString (18) and VisibleString (26) — ASCII subsets, read as UTF-8 so a CA that put
/// UTF-8 in them is still shown as it meant; TeletexString (20) as Latin-1, as CAs and OpenSSL use
/// it; BMPString (30) as UTF-16BE; UniversalString (28) as UTF-32BE. Any other type, and a string
/// that does not decode, is written as RFC 4514 §2.4 writes a value that is not a string: `#` and
/// the hex of its whole DER encoding.
///
/// Escaping (RFC 4514 §2.4): `"` `+` `,` `;` `<` `>` `\` get a backslash, as do a leading `#` or
/// space and a trailing space — so a value can never forge a separator or an attribute. Control
/// characters (C0, DEL, C1), format characters (bidi overrides, zero-width ones) and line or
/// paragraph separators are written as `\XX` per UTF-8 byte, so nothing invisible reaches a view.
/// Everything else is kept exactly as the certificate wrote it.
enum AttributeValueText {
    private enum Encoding { case utf8, latin1, utf16, utf32 }

    static func append(_ value: DERReader.Element, to text: inout BoundedText) {
        guard let encoding = encoding(of: value.tag) else { return appendAsHex(value, to: &text) }
        if encoding == .utf8 || encoding == .latin1, isPlainASCII(value.content), value.content.count <= text.room {
            // The usual value: printable ASCII that needs no escape, its own text in both encodings.
            text.unit { $0.append(contentsOf: value.content) }
            return
        }
        guard decodes(value.content, encoding) else { return appendAsHex(value, to: &text) }
        var position = 0
        var pendingSpaces = 0
        forEachScalar(value.content, encoding) { scalar in
            defer { position += 1 }
            if scalar == " ", position > 0 {
                // Held back: only the last of a run at the very end needs escaping.
                pendingSpaces += 1
                return
            }
            for _ in 0..<pendingSpaces { text.unit { $0.append(UInt8(ascii: " ")) } }
            pendingSpaces = 0
            text.unit { appendEscaped(scalar, isFirst: position == 0, to: &$0) }
        }
        if pendingSpaces > 0 {
            for _ in 1..<pendingSpaces { text.unit { $0.append(UInt8(ascii: " ")) } }
            text.unit { $0.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: " ")]) }
        }
    }

    private static func appendAsHex(_ value: DERReader.Element, to text: inout BoundedText) {
        text.unit { $0.append(UInt8(ascii: "#")) }
        for byte in value.encoded { text.unit { BoundedText.appendHex(byte, to: &$0) } }
    }

    /// Printable ASCII with nothing to escape: no special character anywhere, no `#` or space
    /// first, no space last.
    private static func isPlainASCII(_ content: ArraySlice<UInt8>) -> Bool {
        guard let first = content.first, let last = content.last,
              first != UInt8(ascii: "#"), first != UInt8(ascii: " "), last != UInt8(ascii: " ") else { return false }
        for byte in content {
            switch byte {
            case 0x20...0x7E:
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
                     UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"): return false
                default: continue
                }
            default: return false
            }
        }
        return true
    }

    private static func encoding(of tag: DERReader.Tag) -> Encoding? {
        guard tag.tagClass == 0, !tag.isConstructed else { return nil }
        switch tag.number {
        case 12, 18, 19, 22, 26: return .utf8
        case 20: return .latin1
        case 30: return .utf16
        case 28: return .utf32
        default: return nil
        }
    }

    private static func appendEscaped(_ scalar: Unicode.Scalar, isFirst: Bool, to bytes: inout [UInt8]) {
        switch scalar {
        case "\"", "+", ",", ";", "<", ">", "\\":
            bytes.append(UInt8(ascii: "\\"))
            bytes.append(UInt8(scalar.value))
        case "#" where isFirst, " " where isFirst:
            bytes.append(UInt8(ascii: "\\"))
            bytes.append(UInt8(scalar.value))
        default:
            let isHidden: Bool
            if scalar.value < 0x80 {
                isHidden = scalar.value < 0x20 || scalar.value == 0x7F
            } else {
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator: isHidden = true
                default: isHidden = false
                }
            }
            for byte in scalar.utf8 {
                if isHidden {
                    bytes.append(UInt8(ascii: "\\"))
                    BoundedText.appendHex(byte, to: &bytes)
                } else {
                    bytes.append(byte)
                }
            }
        }
    }

    // MARK: decoding

    private static func decodes(_ content: ArraySlice<UInt8>, _ encoding: Encoding) -> Bool {
        var isValid = true
        forEachScalar(content, encoding, invalid: { isValid = false }) { _ in }
        return isValid
    }

    /// Calls `body` with each scalar of `content`; stops and calls `invalid` at the first
    /// sequence that does not decode.
    private static func forEachScalar(_ content: ArraySlice<UInt8>, _ encoding: Encoding,
                                      invalid: () -> Void = {}, _ body: (Unicode.Scalar) -> Void) {
        switch encoding {
        case .latin1:
            for byte in content { body(Unicode.Scalar(byte)) }
        case .utf8:
            var iterator = content.makeIterator()
            var parser = Unicode.UTF8.ForwardParser()
            while true {
                switch parser.parseScalar(from: &iterator) {
                case .valid(let encoded): body(Unicode.UTF8.decode(encoded))
                case .emptyInput: return
                case .error: return invalid()
                }
            }
        case .utf16:
            guard content.count % 2 == 0 else { return invalid() }
            var iterator = BigEndianUnits<UInt16>(content)
            var parser = Unicode.UTF16.ForwardParser()
            while true {
                switch parser.parseScalar(from: &iterator) {
                case .valid(let encoded): body(Unicode.UTF16.decode(encoded))
                case .emptyInput: return
                case .error: return invalid()
                }
            }
        case .utf32:
            guard content.count % 4 == 0 else { return invalid() }
            var iterator = BigEndianUnits<UInt32>(content)
            while let unit = iterator.next() {
                guard let scalar = Unicode.Scalar(unit) else { return invalid() }
                body(scalar)
            }
        }
    }

    /// Big-endian code units of a byte slice whose length is a multiple of the unit's size.
    private struct BigEndianUnits<Unit: FixedWidthInteger & UnsignedInteger>: IteratorProtocol {
        let bytes: ArraySlice<UInt8>
        var index: Int

        init(_ bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            index = bytes.startIndex
        }

        mutating func next() -> Unit? {
            let size = Unit.bitWidth / 8
            guard bytes.endIndex - index >= size else { return nil }
            var unit: Unit = 0
            for offset in 0..<size { unit = unit << 8 | Unit(bytes[index + offset]) }
            index += size
            return unit
        }
    }
}
