/// The header's 4-bit RCODE (RFC 1035 §4.1.1; IANA "DNS RCODEs"). Open code point. The extended
/// bits an EDNS OPT record adds live in the additional section, which is not read.
package struct DNSResponseCode: RawRepresentable, Sendable, Hashable {
    package let rawValue: UInt8

    /// Keeps the low 4 bits: the header has no more.
    package init(rawValue: UInt8) {
        self.rawValue = rawValue & 0x0F
    }

    package static let noError = DNSResponseCode(rawValue: 0)
    static let formatError = DNSResponseCode(rawValue: 1)
    package static let serverFailure = DNSResponseCode(rawValue: 2)
    package static let nameError = DNSResponseCode(rawValue: 3)
    package static let notImplemented = DNSResponseCode(rawValue: 4)
    package static let refused = DNSResponseCode(rawValue: 5)
}

extension DNSResponseCode: CustomStringConvertible {
    package var description: String {
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
