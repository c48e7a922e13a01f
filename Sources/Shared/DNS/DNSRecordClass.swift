/// A resource record or question class (RFC 1035 §3.2.4). Only IN carries Internet addresses;
/// the others are kept as evidence.
public struct DNSRecordClass: RawRepresentable, Sendable, Hashable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    public static let internet = DNSRecordClass(rawValue: 1)
    public static let chaos = DNSRecordClass(rawValue: 3)
    public static let hesiod = DNSRecordClass(rawValue: 4)
}

extension DNSRecordClass: CustomStringConvertible {
    /// The mnemonic of a named class, else `CLASS` and the decimal value (RFC 3597 §5).
    public var description: String {
        switch self {
        case .internet: "IN"
        case .chaos: "CH"
        case .hesiod: "HS"
        default: "CLASS\(rawValue)"
        }
    }
}
