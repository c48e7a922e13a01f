import Foundation
import FuzzSupport
import Shared

/// One input is a program that builds a tree of DER values: each byte picks an operation, and the
/// bytes after it are its operand (missing bytes read as 0). The tree is written with `DERWriter`,
/// and `DERReader` must read back exactly what was written:
/// - every element's tag is the one written, and the reader ends where the writer did;
/// - an INTEGER from an Int decodes (two's complement) to that Int, in the fewest bytes;
/// - an INTEGER from a magnitude decodes to the same magnitude, positive, in the fewest bytes;
/// - an OID's content decodes (base 128) to the arcs written; a time reads back to its second;
/// - strings, octet and bit strings keep their bytes; a constructed element holds its children.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDERWriter(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    var nodes: [Node] = []
    var budget = 256
    while input.rest.count > 0, budget > 0 {
        nodes.append(Node.read(&input, depth: 0, budget: &budget))
    }
    var writer = DERWriter()
    for node in nodes { node.write(to: &writer) }
    var reader = DERReader(writer.bytes[...])
    for node in nodes { node.check(&reader) }
    invariant(reader.isAtEnd, "bytes are left after the last element")
    return 0
}

indirect enum Node {
    case integer(Int)
    case magnitude([UInt8])
    case octets([UInt8])
    case bits([UInt8], unused: UInt8)
    case boolean(Bool)
    case null
    case oid([UInt64])
    case utf8(String)
    case time(Int64)
    case sequence([Node])
    case context(UInt32, [Node])
    case implicit(UInt32, [UInt8])

    static func read(_ input: inout FuzzInput, depth: Int, budget: inout Int) -> Node {
        budget -= 1
        let op = input.byte() % 12
        func bytes() -> [UInt8] { (0..<Int(input.byte() % 200)).map { _ in input.byte() } }
        func word() -> UInt64 { (0..<8).reduce(0) { value, _ in value << 8 | UInt64(input.byte()) } }
        switch op {
        case 0: return .integer(Int(truncatingIfNeeded: word()))
        case 1: return .magnitude(bytes())
        case 2: return .octets(bytes())
        case 3:
            let content = bytes()
            return .bits(content, unused: content.isEmpty ? 0 : input.byte() % 8)
        case 4: return .boolean(input.byte() & 1 == 1)
        case 5: return .null
        case 6:
            let first = UInt64(input.byte() % 3), second = UInt64(input.byte()) % (first == 2 ? 256 : 40)
            return .oid([first, second] + (0..<Int(input.byte() % 6)).map { _ in word() >> UInt64(input.byte() % 64) })
        case 7: return .utf8(String(decoding: bytes(), as: UTF8.self))
        case 8: return .time(Int64(truncatingIfNeeded: word()) % 253_402_300_800)
        case 9, 10:
            let count = depth < 8 ? Int(input.byte() % 5) : 0
            var children: [Node] = []
            for _ in 0..<count where budget > 0 { children.append(read(&input, depth: depth + 1, budget: &budget)) }
            return op == 9 ? .sequence(children) : .context(UInt32(input.byte()), children)
        default:
            return .implicit(UInt32(input.byte()) << 8 | UInt32(input.byte()), bytes())
        }
    }

    func write(to writer: inout DERWriter) {
        switch self {
        case let .integer(value): writer.integer(value)
        case let .magnitude(bytes): writer.integer(magnitude: bytes)
        case let .octets(bytes): writer.octetString(bytes)
        case let .bits(bytes, unused): writer.bitString(bytes, unusedBits: unused)
        case let .boolean(value): writer.boolean(value)
        case .null: writer.null()
        case let .oid(arcs):
            // Every program's OID is valid (first arc 0…2, second below 40 under 0 and 1).
            do { try writer.objectIdentifier(arcs.map(String.init).joined(separator: ".")) } catch {
                invariant(false, "\(arcs) refused: \(error)")
            }
        case let .utf8(text): writer.utf8String(text)
        case let .time(seconds):
            do { try writer.time(Date(timeIntervalSince1970: TimeInterval(seconds))) } catch {
                invariant(seconds < -62_167_219_200, "\(seconds) refused: \(error)")
            }
        case let .sequence(children): writer.sequence { inner in for child in children { child.write(to: &inner) } }
        case let .context(number, children): writer.explicit(number) { inner in for child in children { child.write(to: &inner) } }
        case let .implicit(number, bytes): writer.implicit(number, content: bytes)
        }
    }

    func check(_ reader: inout DERReader) {
        // What write() skips, check() skips.
        if case let .time(seconds) = self, seconds < -62_167_219_200 { return }
        let element: DERReader.Element
        do { element = try reader.read() } catch { return invariant(false, "\(self) reads back as \(error)") }
        let content = Array(element.content)
        switch self {
        case let .integer(value):
            invariant(element.tag == .integer && Self.signed(content) == value, "INTEGER \(value) reads as \(content)")
            invariant(content.count == 1 || !(content[0] == 0 && content[1] < 0x80) && !(content[0] == 0xFF && content[1] >= 0x80),
                      "INTEGER \(value) is not minimal: \(content)")
        case let .magnitude(bytes):
            let expected = Array(bytes.drop { $0 == 0 })
            invariant(element.tag == .integer && content.first! < 0x80 && Array(content.drop { $0 == 0 }) == expected,
                      "INTEGER magnitude \(bytes) reads as \(content)")
            invariant(content.count == 1 || !(content[0] == 0 && content[1] < 0x80), "INTEGER \(bytes) is not minimal: \(content)")
        case let .octets(bytes): invariant(element.tag == .universal(4) && content == bytes, "OCTET STRING \(bytes) reads as \(content)")
        case let .bits(bytes, unused): invariant(element.tag == .bitString && content == [unused] + bytes, "BIT STRING reads as \(content)")
        case let .boolean(value): invariant(element.tag == .universal(1) && content == [value ? 0xFF : 0], "BOOLEAN reads as \(content)")
        case .null: invariant(element.tag == .universal(5) && content.isEmpty, "NULL reads as \(content)")
        case let .oid(arcs): invariant(element.tag == .objectIdentifier && Self.arcs(content) == arcs, "OID \(arcs) reads as \(content)")
        case let .utf8(text): invariant(element.tag == .universal(12) && content == Array(text.utf8), "UTF8String reads as \(content)")
        case let .time(seconds):
            invariant(CertificateTime.date(from: element) == Date(timeIntervalSince1970: TimeInterval(seconds)), "time \(seconds) reads as \(content)")
            let year1950 = -631_152_000, year2050 = 2_524_608_000
            invariant((element.tag == .utcTime) == (seconds >= year1950 && seconds < year2050), "time \(seconds) in the wrong form")
        case let .sequence(children), let .context(_, children):
            if case let .context(number, _) = self {
                invariant(element.tag == .contextSpecific(number, constructed: true), "[\(number)] reads as \(element.tag)")
            } else {
                invariant(element.tag == .sequence, "SEQUENCE reads as \(element.tag)")
            }
            var inner = DERReader(element.content)
            for child in children { child.check(&inner) }
            invariant(inner.isAtEnd, "a constructed element holds more than its children")
        case let .implicit(number, bytes):
            invariant(element.tag == .contextSpecific(number, constructed: false) && content == bytes, "[\(number)] reads as \(content)")
        }
    }

    /// Two's complement big-endian, as X.690 §8.3.3 defines the value.
    static func signed(_ content: [UInt8]) -> Int? {
        guard content.count <= 8, let first = content.first else { return nil }
        return content.dropFirst().reduce(Int(Int8(bitPattern: first))) { $0 << 8 | Int($1) }
    }

    /// The arcs of an OID's content, the first subidentifier unfolded (X.690 §8.19.4).
    static func arcs(_ content: [UInt8]) -> [UInt64]? {
        var subidentifiers: [UInt64] = []
        var value: UInt64 = 0
        for byte in content {
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 {
                subidentifiers.append(value)
                value = 0
            }
        }
        guard let first = subidentifiers.first, content.last.map({ $0 & 0x80 == 0 }) == true else { return nil }
        let head: [UInt64] = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80]
        return head + subidentifiers.dropFirst()
    }
}
