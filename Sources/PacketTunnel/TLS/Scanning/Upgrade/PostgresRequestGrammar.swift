/// PostgreSQL's request to switch to TLS and its answer (PostgreSQL protocol, "SSL Session
/// Encryption" and "GSSAPI Session Encryption"):
///
///   client:  SSLRequest = Int32(8) Int32(80877103)       — 00 00 00 08 04 D2 16 2F
///            a GSSENCRequest (… 16 30) may come first, then the SSLRequest after the server's 'N'
///   server:  'S' (TLS follows) or 'N' (no); once per request
///
/// After an 'N' to the SSLRequest the client sends its StartupMessage in the clear: refused.
package struct PostgresRequestGrammar: Sendable {
    private static let sslRequest: [UInt8] = [0, 0, 0, 8, 0x04, 0xD2, 0x16, 0x2F]
    private static let gssEncRequestCode: UInt8 = 0x30

    private var kept: [UInt8] = []
    private var requests = 0
    private var askedForTLS = false

    package init() {}

    mutating func feed(_ byte: UInt8) -> UpgradeFollower.Step {
        // The follower takes the marker back at the first byte that is no handshake record.
        if askedForTLS { return .refused }
        let index = kept.count
        let expected = Self.sslRequest[index]
        let fits = byte == expected || (index == 7 && byte == Self.gssEncRequestCode)
        guard fits else { return requests == 0 ? .notMine : .refused }
        kept.append(byte)
        guard kept.count == 8 else { return .more }
        requests += 1
        kept.removeAll(keepingCapacity: true)
        if byte == Self.gssEncRequestCode {
            // Only first: a second is no client's way.
            return requests == 1 ? .more : .refused
        }
        askedForTLS = true
        return .marker(.postgres)
    }
}
