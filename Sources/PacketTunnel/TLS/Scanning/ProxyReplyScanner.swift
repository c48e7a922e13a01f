import Foundation
import Shared

/// Steps over a proxy's reply at the start of the server's stream, so that what the tunnel carries
/// after it (a ServerHello) is read from where it begins. A pure value fed chunk by chunk; sticky
/// once settled.
///
/// The grammars (`ProxyReplyGrammar` reads them):
///   SOCKS5 (RFC 1928):  method selection `05 METHOD` (§3); RFC 1929 §2's `01 STATUS` after method
///                       02; the reply `05 REP 00 ATYP BND.ADDR BND.PORT` (§6), its length from ATYP
///   SOCKS4 / 4a:        `00 CD DSTPORT DSTIP`, 8 bytes; CD 90 grants
///   HTTP CONNECT:       `HTTP/1.x SSS reason` CRLF, header lines, CRLF (RFC 9110 §9.3.6: any 2xx
///                       makes the connection a tunnel)
///
/// What it answers: `found(end)`, the stream offset where the tunnel begins; `unavailable(.refused)`
/// when the proxy said no (nothing inside to read); `.notReply` for bytes that are no such reply,
/// or an authentication method it cannot follow; `.tooLarge` past `maxReplyBytes`.
package struct ProxyReplyScanner: Sendable {
    /// The reply grammars: SOCKS4 and 4a are answered alike.
    package enum Kind: Sendable, Equatable {
        case socks4, socks5, httpConnect

        package init(_ proxyProtocol: ProxyProtocol) {
            switch proxyProtocol {
            case .socks4, .socks4a: self = .socks4
            case .socks5: self = .socks5
            case .httpConnect: self = .httpConnect
            }
        }
    }

    package typealias Outcome = ScanOutcome<Int, Reason>

    package enum Reason: Sendable, Equatable { case refused, notReply, tooLarge }

    /// The most bytes waited for: a SOCKS5 reply with a 255-byte name and its preamble is 266; an
    /// HTTP proxy's answer to CONNECT is a status line and a few short headers.
    static let maxReplyBytes = 1040

    package let kind: Kind
    private var pending: [UInt8] = []
    private var settled: Outcome?

    package init(kind: Kind) { self.kind = kind }

    /// Feeds the next bytes of the server's stream.
    package mutating func scan(_ bytes: Data) -> Outcome {
        if let settled { return settled }
        return bytes.withUnsafeBytes { scan($0) }
    }

    /// Feeds the next bytes of the server's stream, borrowed for the call only.
    package mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        if let settled { return settled }
        let room = Self.maxReplyBytes - pending.count
        pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes.prefix(room)))
        let kind = kind
        switch pending.withUnsafeBytes({ ProxyReplyGrammar.read($0, kind: kind) }) {
        case .needMoreBytes:
            return pending.count >= Self.maxReplyBytes ? settle(.unavailable(.tooLarge)) : .needMoreBytes
        case .granted(let end):
            return settle(.found(end))
        case .refused:
            return settle(.unavailable(.refused))
        case .notMine:
            return settle(.unavailable(.notReply))
        }
    }

    private mutating func settle(_ outcome: Outcome) -> Outcome {
        settled = outcome
        pending = []
        return outcome
    }
}
