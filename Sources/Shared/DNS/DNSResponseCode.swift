/// The header's 4-bit RCODE (RFC 1035 §4.1.1; IANA "DNS RCODEs"). Open code point. The extended
/// bits an EDNS OPT record adds live in the additional section, which is not read.
public struct DNSResponseCode: RawRepresentable, Sendable, Hashable {
    public let rawValue: UInt8

    /// Keeps the low 4 bits: the header has no more.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue & 0x0F
    }

    public static let noError = DNSResponseCode(rawValue: 0)
    public static let formatError = DNSResponseCode(rawValue: 1)
    public static let serverFailure = DNSResponseCode(rawValue: 2)
    public static let nameError = DNSResponseCode(rawValue: 3)
    public static let notImplemented = DNSResponseCode(rawValue: 4)
    public static let refused = DNSResponseCode(rawValue: 5)
}

extension DNSResponseCode: CustomStringConvertible {
    public var description: String {
        switch self {
        case .noError: "NOERROR"
        case .formatError: "FORMERR"
        case .serverFailure: "SERVFAIL"
        case .nameError: "NXDOMAIN"
        case .notImplemented: "NOTIMP"
        case .refused: "REFUSED"
        default: "RCODE\(rawValue)"
        }
    }
}
