/// OBJECT IDENTIFIER from its dotted text (X.690 §8.19): the first two arcs folded into one
/// subidentifier (40·X + Y, §8.19.4), each subidentifier in base 128 (§8.19.2).
extension DERWriter {
    package mutating func objectIdentifier(_ dotted: String) throws(DERWriterFailure) {
        append(.objectIdentifier, content: try Self.objectIdentifierContent(dotted))
    }

    static func objectIdentifierContent(_ dotted: String) throws(DERWriterFailure) -> [UInt8] {
        let parts = dotted.split(separator: ".", omittingEmptySubsequences: false)
        var arcs: [UInt64] = []
        for part in parts {
            // Decimal digits only: no sign, no space, no empty arc ("1..2").
            guard !part.isEmpty, part.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                  let arc = UInt64(part) else { throw .invalidObjectIdentifier(dotted) }
            arcs.append(arc)
        }
        guard arcs.count >= 2, arcs[0] <= 2, arcs[0] == 2 || arcs[1] < 40 else { throw .invalidObjectIdentifier(dotted) }
        let (first, overflow) = (arcs[0] * 40).addingReportingOverflow(arcs[1])
        guard !overflow else { throw .invalidObjectIdentifier(dotted) }
        return ([first] + arcs.dropFirst(2)).flatMap(base128)
    }
}
