/// A resource record or question type (RFC 1035 §3.2.2, IANA "Resource Record (RR) TYPEs").
/// An open code point: a type this file does not name still parses, is kept and is shown raw.
public struct DNSRecordType: RawRepresentable, Sendable, Hashable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    public static let a = DNSRecordType(rawValue: 1)
    public static let ns = DNSRecordType(rawValue: 2)
    public static let cname = DNSRecordType(rawValue: 5)
    public static let soa = DNSRecordType(rawValue: 6)
    public static let ptr = DNSRecordType(rawValue: 12)
    public static let mx = DNSRecordType(rawValue: 15)
    public static let txt = DNSRecordType(rawValue: 16)
    public static let aaaa = DNSRecordType(rawValue: 28)
    public static let srv = DNSRecordType(rawValue: 33)
    public static let opt = DNSRecordType(rawValue: 41)
}

extension DNSRecordType: CustomStringConvertible {
    /// The mnemonic of a named type, else `TYPE` and the decimal value (RFC 3597 §5).
    public var description: String {
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
