import Foundation
import Shared

/// Reads the server name a TLS client asked for (SNI, RFC 6066 §3), and what it offered, from the
/// first bytes it sends — no decryption, no CA. A pure value fed the stream chunk by chunk; once it
/// settles it stays settled and reads nothing more.
///
/// What it answers:
/// - `found(name)`: the first `host_name` of `server_name`, validated and lowercased
///   (`HostNameRule` says the rule).
/// - `unavailable(.notTLSHandshake)`: the first record is not a handshake record (or the bytes are
///   no TLS record at all); `.notClientHello`: the first handshake message is another type;
///   `.malformed`: a length that lies, an invalid name, a record of another type cutting the hello;
///   `.noServerName`: a sound hello without a usable `server_name`; `.tooLarge`: the hello declares
///   more than `Config.maxHelloBytes`, or its record more than 2^14.
///
/// `offer` is read in the same pass: it is set when the hello's structure is sound, whatever
/// became of the name; an unsound ALPN or versions list, or a repeated one, costs the offer only.
package struct ClientHelloScanner: Sendable {
    package typealias Framing = TLSHandshakeAssembler.Framing

    package struct Config: Sendable, Equatable {
        /// The largest ClientHello body read: one record's worth (RFC 8446 §5.1), beyond anything
        /// a real client sends, post-quantum key shares included.
        package var maxHelloBytes: Int
        /// ALPN names kept; more are counted in `omittedApplicationProtocols`.
        package var maxApplicationProtocols: Int
        /// The longest ALPN name kept (registered ones are under 16 bytes); longer ones are counted.
        package var maxApplicationProtocolLength: Int
        /// Whether `fingerprints` are computed. Off for a reader whose hello another scanner of
        /// the same stream fingerprints (the relay's inspection candidate): once per hello.
        package var computesFingerprints: Bool

        package init(maxHelloBytes: Int = 16384, maxApplicationProtocols: Int = 8,
                     maxApplicationProtocolLength: Int = 32, computesFingerprints: Bool = true) {
            self.maxHelloBytes = maxHelloBytes
            self.maxApplicationProtocols = maxApplicationProtocols
            self.maxApplicationProtocolLength = maxApplicationProtocolLength
            self.computesFingerprints = computesFingerprints
        }
    }

    package typealias Outcome = ScanOutcome<String, Reason>

    package enum Reason: Sendable, Equatable {
        case notTLSHandshake, notClientHello, malformed, noServerName, tooLarge
    }

    package let config: Config
    package let framing: Framing
    /// What the client offered; nil until the hello is read, and for good when it was unsound.
    package private(set) var offer: ClientTLSOffer?
    /// What the client lets a server choose; nil until the hello is read, and for good when the
    /// offer or one of the lists it is read from was unsound.
    package private(set) var limits: ClientTLSLimits?
    /// The hello's JA4 and JA3, computed once when it is read; nil until then, and for good when
    /// the offer was unsound or the config does not compute them.
    package private(set) var fingerprints: ClientHelloFingerprints?
    private var assembler: TLSHandshakeAssembler
    private var settled: Outcome?

    package init(config: Config = Config(), framing: Framing = .tlsRecords) {
        self.config = config
        self.framing = framing
        assembler = TLSHandshakeAssembler(framing: framing, maxBodyBytes: config.maxHelloBytes)
    }

    /// Feeds the next bytes of the client's stream.
    package mutating func scan(_ bytes: Data) -> Outcome {
        if let settled { return settled }
        return bytes.withUnsafeBytes { scan($0) }
    }

    /// Feeds the next bytes of the client's stream, borrowed for the call only.
    package mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        if let settled { return settled }
        var offset = 0
        while true {
            switch assembler.next(bytes, &offset) {
            case .needMoreBytes:
                return .needMoreBytes
            case .messageHeader(let type, let length):
                guard type == TLSWire.clientHello else { return settle(.notClientHello) }
                guard length <= config.maxHelloBytes else { return settle(.tooLarge) }
            case .messageBody(_, _, let body):
                let reading = assembler.withBody(body, in: bytes) {
                    Self.read($0, config: config, transport: framing == .handshakeMessages ? .quic : .tcp)
                }
                offer = reading.offer
                limits = reading.limits
                fingerprints = reading.fingerprints
                return settle(reading.name)
            case .alert, .otherRecord, .failure(.notTLS):
                // Before the hello: not a handshake. Inside it: another record cut the message.
                return settle(assembler.isInsideMessage ? .malformed : .notTLSHandshake)
            case .failure(.malformed):
                return settle(.malformed)
            case .failure(.recordTooLarge):
                return settle(.tooLarge)
            }
        }
    }

    private mutating func settle(_ reason: Reason) -> Outcome { settle(.unavailable(reason)) }

    private mutating func settle(_ outcome: Outcome) -> Outcome {
        settled = outcome
        // The assembler's buffer is no longer needed once settled.
        assembler = TLSHandshakeAssembler(framing: framing, maxBodyBytes: 0)
        return outcome
    }
}
