/// The kind of query (RFC 1035 §4.1.1, 4 bits; IANA "DNS OpCodes"). Open code point.
package struct DNSOpcode: RawRepresentable, Sendable, Hashable {
    package let rawValue: UInt8

    /// Keeps the low 4 bits: an opcode has no more.
    package init(rawValue: UInt8) {
        self.rawValue = rawValue & 0x0F
    }

    package static let query = DNSOpcode(rawValue: 0)
    static let inverseQuery = DNSOpcode(rawValue: 1)
    package static let status = DNSOpcode(rawValue: 2)
    package static let notify = DNSOpcode(rawValue: 4)
    package static let update = DNSOpcode(rawValue: 5)
}

extension DNSOpcode: CustomStringConvertible {
    package var description: String {
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
