import Foundation
import Shared

/// Reads the server's Certificate message of TLS ≤ 1.2 (RFC 5246 §7.4.2), which travels in the
/// clear right behind the ServerHello: each certificate's subject, issuer and notAfter. It picks up
/// the stream where `ServerHelloScanner` stopped, is bounded, and is sticky once it settles.
///
/// What the first thing after the ServerHello means:
/// - Certificate (11): `found(.chain)`, complete unless `maxChainBytes` or `maxCertificates` cut it.
/// - ChangeCipherSpec, NewSessionTicket (4) or Finished (20): `found(.notSent(.resumedSession))` —
///   an abbreviated handshake (RFC 5246 §7.3; with a ticket, RFC 5077 §3.1).
/// - ServerKeyExchange (12) or ServerHelloDone (14): `found(.notSent(.continuedWithoutCertificate))`.
/// - Another handshake message: `unavailable(.unexpectedMessage(type:))`; an alert:
///   `unavailable(.alert(description:))`; application data or another record type:
///   `.notTLSHandshake`; a length that lies, a record cutting a message, a certificate list that
///   does not add up or a leaf that cannot be read: `.malformed`.
/// After a ServerHello that chose TLS 1.3 nothing is read: the answer is `.notTLSHandshake` at
/// once (the rest of the handshake is encrypted), and callers are expected not to scan at all.
package struct ServerCertificateScanner: Sendable {
    package struct Config: Sendable, Equatable {
        /// The most of the Certificate message kept; certificates wholly inside it are read.
        package var maxChainBytes: Int
        /// Certificates read; a longer chain is kept cut, as incomplete.
        package var maxCertificates: Int
        /// The longest subject or issuer text kept (UTF-8 bytes), then marked truncated.
        package var maxNameLength: Int

        package init(maxChainBytes: Int = 32768, maxCertificates: Int = 8, maxNameLength: Int = 256) {
            self.maxChainBytes = maxChainBytes
            self.maxCertificates = maxCertificates
            self.maxNameLength = maxNameLength
        }
    }

    package typealias Outcome = ScanOutcome<ServerCertificateReading, Reason>

    package enum Reason: Sendable, Equatable {
        case notTLSHandshake, alert(description: UInt8), unexpectedMessage(type: UInt8), malformed
    }

    package let config: Config
    private var assembler: TLSHandshakeAssembler
    private var pending: Data
    private var settled: Outcome?

    package init(resuming remainder: ServerHelloScanner.Remainder, config: Config = Config()) {
        self.config = config
        assembler = remainder.assembler
        assembler.maxBodyBytes = config.maxChainBytes
        pending = remainder.choseTLS13 ? Data() : remainder.pending
        if remainder.choseTLS13 { settled = .unavailable(.notTLSHandshake) }
    }

    /// Feeds the next bytes of the server's stream. The first call reads first what followed the
    /// ServerHello in its own chunk, so `scan(Data())` answers from those bytes alone.
    package mutating func scan(_ bytes: Data) -> Outcome {
        if let settled { return settled }
        return bytes.withUnsafeBytes { scan($0) }
    }

    /// Feeds the next bytes of the server's stream, borrowed for the call only.
    package mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        if let settled { return settled }
        if !pending.isEmpty {
            let earlier = pending
            pending = Data()
            let outcome = earlier.withUnsafeBytes { scanCore($0) }
            guard outcome == .needMoreBytes else { return outcome }
        }
        return scanCore(bytes)
    }

    private mutating func scanCore(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        var offset = 0
        while true {
            switch assembler.next(bytes, &offset) {
            case .needMoreBytes:
                return .needMoreBytes
            case .messageHeader(let type, let length):
                switch type {
                case TLSWire.certificate:
                    // certificate_list's own 3-byte length, at least.
                    guard length >= 3 else { return settle(.malformed) }
                case TLSWire.newSessionTicket, TLSWire.finished:
                    return settle(.found(.notSent(.resumedSession)))
                case TLSWire.serverKeyExchange, TLSWire.serverHelloDone:
                    return settle(.found(.notSent(.continuedWithoutCertificate)))
                default:
                    return settle(.unexpectedMessage(type: type))
                }
            case .messageBody(_, let length, let body):
                let message = assembler.takeBody(body, in: bytes)
                return settle(Self.chain(message, declaredLength: length, config: config))
            case .alert(_, let description):
                return settle(.alert(description: description))
            case .otherRecord(let type):
                if assembler.isInsideMessage { return settle(.malformed) }
                return settle(type == TLSWire.changeCipherSpec ? .found(.notSent(.resumedSession)) : .unavailable(.notTLSHandshake))
            case .failure:
                // The stream was TLS up to the ServerHello: whatever breaks now is malformed.
                return settle(.malformed)
            }
        }
    }

    private mutating func settle(_ reason: Reason) -> Outcome { settle(.unavailable(reason)) }

    private mutating func settle(_ outcome: Outcome) -> Outcome {
        settled = outcome
        pending = Data()
        assembler = TLSHandshakeAssembler(framing: .tlsRecords, maxBodyBytes: 0)
        return outcome
    }
}
