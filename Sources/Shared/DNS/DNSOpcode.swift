/// The kind of query (RFC 1035 §4.1.1, 4 bits; IANA "DNS OpCodes"). Open code point.
public struct DNSOpcode: RawRepresentable, Sendable, Hashable {
    public let rawValue: UInt8

    /// Keeps the low 4 bits: an opcode has no more.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue & 0x0F
    }

    public static let query = DNSOpcode(rawValue: 0)
    public static let inverseQuery = DNSOpcode(rawValue: 1)
    public static let status = DNSOpcode(rawValue: 2)
    public static let notify = DNSOpcode(rawValue: 4)
    public static let update = DNSOpcode(rawValue: 5)
}

extension DNSOpcode: CustomStringConvertible {
    public var description: String {
        switch self {
        case .query: "QUERY"
        case .inverseQuery: "IQUERY"
        case .status: "STATUS"
        case .notify: "NOTIFY"
        case .update: "UPDATE"
        default: "OPCODE\(rawValue)"
        }
    }
}
