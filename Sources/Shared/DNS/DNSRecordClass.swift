/// A resource record or question class (RFC 1035 §3.2.4). Only IN carries Internet addresses;
/// the others are kept as evidence.
package struct DNSRecordClass: RawRepresentable, Sendable, Hashable {
    package let rawValue: UInt16

    package init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    package static let internet = DNSRecordClass(rawValue: 1)
    package static let chaos = DNSRecordClass(rawValue: 3)
    static let hesiod = DNSRecordClass(rawValue: 4)
}

extension DNSRecordClass: CustomStringConvertible {
    /// The mnemonic of a named class, else `CLASS` and the decimal value (RFC 3597 §5).
    package var description: String {
        switch self {
        case .internet: "IN"
        case .chaos: "CH"
        case .hesiod: "HS"
        default: "CLASS\(rawValue)"
        }
    }
}
