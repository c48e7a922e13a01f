/// A name a leaf is asked for, checked before anything is minted: an IP literal (v4 or v6, the
/// text `inet_pton` reads) becomes an iPAddress SAN, anything else must be a DNS name of at most
/// 253 characters made of letters, digits, '-', '_', '.' and a '*' label (RFC 1035 §2.3.1 as
/// SNI carries it, RFC 6125 §6.4.3 wildcards).
struct LeafName: Sendable {
    let alternativeName: X509Extension.AlternativeName
    /// DNS names compare without case (RFC 4343); addresses by their bytes.
    let cacheKey: String

    init(_ text: String) throws(CertificateAuthorityError) {
        if let address = IPAddress(parsing: text) {
            alternativeName = .ipAddress(address.bytes)
            cacheKey = address.description
            return
        }
        guard !text.isEmpty else { throw .invalidHost(text, "it is empty") }
        guard text.utf8.count <= 253 else { throw .invalidHost(text, "it is longer than the 253 characters of a DNS name") }
        guard text.utf8.allSatisfy(Self.isHostByte), !text.hasPrefix("."), !text.contains("..") else {
            throw .invalidHost(text, "a DNS name holds only letters, digits, '-', '_', '.' and '*'")
        }
        alternativeName = .dnsName(text)
        cacheKey = text.lowercased()
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "*"): true
        default: false
        }
    }
}
