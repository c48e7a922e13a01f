/// A TLS protocol version as it is on the wire (RFC 8446 §4.1.2, §4.2.1): an open code point, so
/// a draft, a GREASE value or garbage parses, is stored and is shown raw — it is evidence.
///
/// Not `Comparable`: only published versions have an order (a 0x7F1C draft is not "newer than
/// TLS 1.3"), so the comparisons answer false whenever either side is unpublished.
package struct TLSProtocolVersion: RawRepresentable, Sendable, Hashable, Codable {
    package let rawValue: UInt16

    package init(rawValue: UInt16) { self.rawValue = rawValue }

    package static let ssl30 = TLSProtocolVersion(rawValue: 0x0300)
    package static let tls10 = TLSProtocolVersion(rawValue: 0x0301)
    package static let tls11 = TLSProtocolVersion(rawValue: 0x0302)
    package static let tls12 = TLSProtocolVersion(rawValue: 0x0303)
    package static let tls13 = TLSProtocolVersion(rawValue: 0x0304)

    /// SSL 3.0 through TLS 1.3: the versions that were ever published.
    package var isPublished: Bool { (Self.ssl30.rawValue...Self.tls13.rawValue).contains(rawValue) }

    /// Whether this version came before `other`: false whenever either is unpublished, since only
    /// published versions have an order (their wire values rise with each version).
    package func isOlder(than other: TLSProtocolVersion) -> Bool {
        isPublished && other.isPublished && rawValue < other.rawValue
    }

    /// "TLS 1.2", "SSL 3.0"; a TLS 1.3 draft by its number with its code point ("TLS 1.3 draft 28
    /// (0x7f1c)": drafts N sent 0x7F00 + N, draft-ietf-tls-tls13-28 §4.2.1); any other unpublished
    /// value as its four hex digits ("0x8a8a").
    package var name: String {
        let code = "0x" + String(repeating: "0", count: 4 - String(rawValue, radix: 16).count) + String(rawValue, radix: 16)
        switch self {
        case .ssl30: return "SSL 3.0"
        case .tls10: return "TLS 1.0"
        case .tls11: return "TLS 1.1"
        case .tls12: return "TLS 1.2"
        case .tls13: return "TLS 1.3"
        default:
            let draft = rawValue & 0xFF
            return rawValue >> 8 == 0x7F && (1...28).contains(draft) ? "TLS 1.3 draft \(draft) (\(code))" : code
        }
    }
}
