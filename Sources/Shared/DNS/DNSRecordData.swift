/// What a record's RDATA says, for the types read; every other record keeps only its size.
package enum DNSRecordData: Sendable, Hashable {
    /// An IN-class A record: 4 bytes (RFC 1035 §3.4.1).
    case a(IPAddress)
    /// An IN-class AAAA record: 16 bytes (RFC 3596 §2.2).
    case aaaa(IPAddress)
    /// A CNAME record: exactly one name filling the RDATA (RFC 1035 §3.3.1).
    case cname(DNSName)
    /// Any other type or class, or a read type whose RDATA has the wrong length or does not hold a
    /// well-formed name: not an error, only not decoded. The count is RDLENGTH.
    case opaque(byteCount: Int)

    /// The address of an A or AAAA record.
    package var address: IPAddress? {
        switch self {
        case let .a(address), let .aaaa(address): address
        case .cname, .opaque: nil
        }
    }
}
