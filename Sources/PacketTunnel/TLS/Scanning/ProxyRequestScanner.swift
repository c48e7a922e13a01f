import Foundation
import Shared

/// Reads where a client asked a proxy to take it, from the first bytes of its stream: a SOCKS4,
/// SOCKS4a or SOCKS5 request, or an HTTP `CONNECT`. A pure value fed chunk by chunk; once settled
/// it stays settled and reads nothing more.
///
/// The grammars (`ProxyRequestGrammar` reads them):
///   SOCKS5 (RFC 1928):  greeting `05 NMETHODS METHODS…` (§3), RFC 1929 §2 credentials
///                       `01 ULEN UNAME PLEN PASSWD` when method 02 was offered, then the request
///                       `05 01 00 ATYP DST.ADDR DST.PORT` (§4; ATYP 01 IPv4, 03 a name, 04 IPv6, §5)
///   SOCKS4 / 4a:        `04 01 DSTPORT DSTIP USERID 00`, and `HOST 00` after it when DSTIP is
///                       0.0.0.x with x ≠ 0 (SOCKS4a)
///   HTTP CONNECT:       `CONNECT host:port HTTP/1.x` CRLF, header lines, CRLF (RFC 9110 §9.3.6,
///                       RFC 9112 §3.2.3 authority-form; an IPv6 host in brackets, RFC 3986 §3.2.2)
/// SOCKS5's server answers the greeting before the client sends its request; that answer is on
/// the other stream, so this stream simply continues with the request.
///
/// What it answers: `found(request)` with the target and where the request ended in the stream;
/// `unavailable(.notProxyRequest)` from the first byte no request can continue with (CONNECT
/// alone: BIND and UDP ASSOCIATE carry no tunnel to read); `unavailable(.tooLarge)` when no
/// request has ended within `maxRequestBytes`.
package struct ProxyRequestScanner: Sendable {
    package struct Request: Sendable, Equatable {
        package var target: ProxyTarget
        /// The stream offset of the first byte after the request: where the tunnel begins.
        package var end: Int
    }

    package typealias Outcome = ScanOutcome<Request, Reason>

    package enum Reason: Sendable, Equatable { case notProxyRequest, tooLarge }

    /// The most bytes waited for. The longest legal SOCKS5 preamble is 1 032 (greeting 257, RFC
    /// 1929 credentials 513, request 262); an HTTP CONNECT's header section gets the same room.
    package static let maxRequestBytes = 1040

    /// The bytes seen so far, while undecided: each chunk re-reads them, as a request is short.
    private var pending: [UInt8] = []
    private var settled: Outcome?

    package init() {}

    /// What the client seems to speak while undecided (from its first byte), or spoke once
    /// found; nil before any byte and once refused. The server's stream is read by it.
    package var candidate: ProxyReplyScanner.Kind? {
        switch settled {
        case .found(let request): return ProxyReplyScanner.Kind(request.target.proxyProtocol)
        case .unavailable: return nil
        case .needMoreBytes, nil: return pending.first.flatMap(ProxyRequestGrammar.kind(firstByte:))
        }
    }

    /// Feeds the next bytes of the client's stream.
    package mutating func scan(_ bytes: Data) -> Outcome {
        if let settled { return settled }
        return bytes.withUnsafeBytes { scan($0) }
    }

    /// Feeds the next bytes of the client's stream, borrowed for the call only.
    package mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        if let settled { return settled }
        // Most streams are refused at their first byte, before anything is copied.
        if pending.isEmpty, let first = bytes.first, ProxyRequestGrammar.kind(firstByte: first) == nil {
            return settle(.unavailable(.notProxyRequest))
        }
        let room = Self.maxRequestBytes - pending.count
        pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes.prefix(room)))
        let reading = pending.withUnsafeBytes { ProxyRequestGrammar.read($0) }
        switch reading {
        case .needMoreBytes:
            return pending.count >= Self.maxRequestBytes ? settle(.unavailable(.tooLarge)) : .needMoreBytes
        case .found(let target, let end):
            return settle(.found(Request(target: target, end: end)))
        case .notMine:
            return settle(.unavailable(.notProxyRequest))
        }
    }

    private mutating func settle(_ outcome: Outcome) -> Outcome {
        settled = outcome
        pending = []
        return outcome
    }
}
