/// Flows counted by the reason they were not inspected, or how inspection broke them: one counter
/// per `InspectionReasonKind`. In JSON an object with every kind as a key, zeros included, so a
/// script reads `byReason.quic` without guessing whether a missing key means none.
package struct InspectionReasonTally: Sendable, Equatable, Codable {
    private var counts: [InspectionReasonKind: UInt64] = [:]

    package init(_ counts: [InspectionReasonKind: UInt64] = [:]) {
        self.counts = counts.filter { $0.value > 0 }
    }

    package subscript(kind: InspectionReasonKind) -> UInt64 {
        get { counts[kind] ?? 0 }
        set { counts[kind] = newValue == 0 ? nil : newValue }
    }

    package mutating func count(_ kind: InspectionReasonKind) { self[kind] += 1 }

    /// Every kind with its count, in `InspectionReasonKind`'s order.
    package var all: [(kind: InspectionReasonKind, count: UInt64)] {
        InspectionReasonKind.allCases.map { ($0, self[$0]) }
    }

    package var total: UInt64 { counts.values.reduce(0, +) }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        for key in container.allKeys {
            guard let kind = InspectionReasonKind(rawValue: key.stringValue) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container,
                                                       debugDescription: "no inspection reason is called \(key.stringValue)")
            }
            self[kind] = try container.decode(UInt64.self, forKey: key)
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (kind, count) in all { try container.encode(count, forKey: Key(stringValue: kind.rawValue)) }
    }
}
