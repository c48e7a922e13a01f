/// A resource record or question type (RFC 1035 §3.2.2, IANA "Resource Record (RR) TYPEs").
/// An open code point: a type this file does not name still parses, is kept and is shown raw.
package struct DNSRecordType: RawRepresentable, Sendable, Hashable {
    package let rawValue: UInt16

    package init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    package static let a = DNSRecordType(rawValue: 1)
    package static let ns = DNSRecordType(rawValue: 2)
    package static let cname = DNSRecordType(rawValue: 5)
    static let soa = DNSRecordType(rawValue: 6)
    static let ptr = DNSRecordType(rawValue: 12)
    package static let mx = DNSRecordType(rawValue: 15)
    package static let txt = DNSRecordType(rawValue: 16)
    package static let aaaa = DNSRecordType(rawValue: 28)
    package static let srv = DNSRecordType(rawValue: 33)
    package static let opt = DNSRecordType(rawValue: 41)
}

extension DNSRecordType: CustomStringConvertible {
    /// The mnemonic of a named type, else `TYPE` and the decimal value (RFC 3597 §5).
    package var description: String {
        switch self {
        case .a: "A"
        case .ns: "NS"
        case .cname: "CNAME"
        case .soa: "SOA"
        case .ptr: "PTR"
        case .mx: "MX"
        case .txt: "TXT"
        case .aaaa: "AAAA"
        case .srv: "SRV"
        case .opt: "OPT"
        default: "TYPE\(rawValue)"
        }
    }
}
