import Foundation
import Shared

/// One TLS endpoint fed from memory: the records the peer sent go in, the records for the peer
/// and the plaintext the peer sent come out. No socket: the relay owns the transport (ADR 0005).
/// OpenSSL over memory BIOs in the product (`Linux/Inspection`); scripted in tests.
///
/// Every call returns at once with what it produced; nothing is reported later. Each direction
/// closes on its own, as TLS 1.3 has it (RFC 8446 §6.1): the peer's close_notify ends what it
/// sends (`peerClosed`) and we may still send; our `close()` ends what we send and we may still
/// read. Only a fatal error ends the session (`ended`).
package protocol TLSSession: AnyObject {
    /// A client session's first flight (its ClientHello); empty for a server, which speaks second.
    func start() -> TLSSessionStep
    /// Records from the peer, in stream order, possibly cut anywhere.
    func receive(_ records: Data) -> TLSSessionStep
    /// Plaintext for the peer; only once `isEstablished`, and not after `close()`.
    func send(_ plaintext: Data) -> TLSSessionStep
    /// The peer's transport ended (its FIN). During the handshake that ends the session; after it,
    /// the session stays open for sending (the peer may be half-closed).
    func receiveEnd() -> TLSSessionStep
    /// Our close_notify, toward the peer; reading goes on.
    func close() -> TLSSessionStep
    var isEstablished: Bool { get }
    /// What the handshake settled, once established; the ALPN choice is nil when none was made.
    var negotiated: NegotiatedTLS? { get }
    var applicationProtocol: String? { get }
}

/// What one call produced.
package struct TLSSessionStep: Sendable, Equatable {
    /// Records to write to the peer, in order.
    package var toPeer: Data
    /// Plaintext the peer sent, decrypted.
    package var plaintext: Data
    /// The handshake finished during this call.
    package var becameEstablished: Bool
    /// The peer's close_notify arrived during this call: it sends nothing more.
    package var peerClosed: Bool
    /// Set when the session is over; nothing more comes out of it.
    package var ended: TLSSessionEnd?

    package init(toPeer: Data = Data(), plaintext: Data = Data(), becameEstablished: Bool = false,
                 peerClosed: Bool = false, ended: TLSSessionEnd? = nil) {
        self.toPeer = toPeer
        self.plaintext = plaintext
        self.becameEstablished = becameEstablished
        self.peerClosed = peerClosed
        self.ended = ended
    }
}

/// How a session ended.
package enum TLSSessionEnd: Sendable, Equatable {
    /// The peer sent a fatal alert (RFC 8446 §6: 42 bad_certificate, 48 unknown_ca, …): a client
    /// refusing our leaf says it this way during the handshake.
    case alertFromPeer(TLSAlertDescription)
    /// Our side refused the peer's certificate (the upstream failed verification); the reason
    /// as OpenSSL words it, e.g. "certificate has expired".
    case verificationFailed(String)
    /// The server asked for the client's own certificate (a client session only): the handshake
    /// stopped there, before we answered it.
    case certificateRequested
    /// The peer's transport ended during the handshake.
    case streamEndedInHandshake
    /// Anything else: the peer's bytes are not TLS, a record broke, a bound was passed.
    case failed(String)
}

/// Makes the two legs of an inspected flow. The product's factory holds the local CA (it mints
/// the leaf, cached per host), the trust store for the upstream, and the key log.
package protocol TLSSessionFactory: AnyObject {
    /// What the client leg can offer, by code point (read from the TLS library once).
    var capabilities: UpstreamCapabilities { get }
    /// The leg toward the client: presents a leaf for `host`, and answers the client's ALPN offer
    /// with `applicationProtocol` (the upstream's choice), or with none when that is nil.
    func makeServer(host: String, applicationProtocol: String?) throws(TLSSessionFailure) -> any TLSSession
    /// The leg toward the real server: SNI `offer.host`, the host name verified against the trust
    /// store, and nothing offered beyond `offer`.
    func makeClient(_ offer: UpstreamOffer) throws(TLSSessionFailure) -> any TLSSession
}

/// A session that could not be made (a leaf that could not be minted, a context OpenSSL refused).
package struct TLSSessionFailure: Error, Sendable, Equatable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
