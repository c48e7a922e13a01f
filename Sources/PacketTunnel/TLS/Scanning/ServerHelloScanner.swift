import Foundation
import Shared

/// Reads the TLS version and cipher suite a server chose from its ServerHello, which precedes
/// every key: the ClientHelloScanner's twin for the inbound stream, bounded by the same ceiling
/// and sticky once it settles.
///
/// What it answers:
/// - `found(NegotiatedTLS)`: the version from supported_versions (43) when present, else
///   legacy_version; `fromHelloRetryRequest` when the random is RFC 8446 §4.1.3's fixed value.
///   `remainder` then holds what followed the ServerHello, for `ServerCertificateScanner`.
/// - `unavailable(.alert(description:))`: an alert record arrived before the ServerHello was
///   whole — including one cutting a partial hello: the alert is the server's last word. A
///   warning other than close_notify between records is not: the hello may follow it.
/// - `.notTLSHandshake` (the first record is not a handshake), `.notServerHello`, `.malformed`
///   (a length that lies, a broken extension, another record type cutting the hello), `.tooLarge`
///   (a hello declaring more than `maxHelloBytes`, or a record more than 2^14).
package struct ServerHelloScanner: Sendable {
    /// The largest ServerHello body read (a real one is under 200 bytes; a HelloRetryRequest with
    /// a cookie, a few hundred).
    package static let maxHelloBytes = 16384

    package typealias Outcome = ScanOutcome<NegotiatedTLS, Reason>

    package enum Reason: Sendable, Equatable {
        case notTLSHandshake, alert(description: UInt8), notServerHello, malformed, tooLarge
    }

    /// What followed the ServerHello: the stream's position (inside which record, how much of it
    /// left) and the bytes of the chunk that completed the hello, after it. Later chunks go to the
    /// `ServerCertificateScanner` built from it, not to this scanner.
    package struct Remainder: Sendable {
        package let negotiated: NegotiatedTLS
        var assembler: TLSHandshakeAssembler
        var pending: Data

        /// The ServerHello chose TLS 1.3 (or a HelloRetryRequest, a draft or a later version):
        /// the rest of the handshake is encrypted, so there is nothing to scan.
        package var choseTLS13: Bool { !ServerCertificateVisibility.certificatesTravelInClear(negotiated) }
    }

    package private(set) var remainder: Remainder?
    /// The hello's JA3S, computed once when it is read; nil until then, and when it was malformed.
    package private(set) var fingerprints: ServerHelloFingerprints?
    private var assembler: TLSHandshakeAssembler
    private var settled: Outcome?

    /// A scanner of TLS records (a TCP stream), or of bare handshake messages (a QUIC server's
    /// Initial CRYPTO stream, where alerts travel as CONNECTION_CLOSE instead).
    package init(framing: TLSHandshakeAssembler.Framing = .tlsRecords) {
        assembler = TLSHandshakeAssembler(framing: framing, maxBodyBytes: Self.maxHelloBytes)
    }

    /// Feeds the next bytes of the server's stream.
    package mutating func scan(_ bytes: Data) -> Outcome {
        if let settled { return settled }
        let (outcome, consumed) = bytes.withUnsafeBytes { scanCore($0) }
        if case .found(let negotiated) = outcome {
            // A slice shares the chunk's storage: no copy of what follows.
            keepRemainder(negotiated, pending: bytes[(bytes.startIndex + consumed)...])
        }
        return outcome
    }

    /// Feeds the next bytes of the server's stream, borrowed for the call only (what follows a
    /// ServerHello is then copied into `remainder`).
    package mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        if let settled { return settled }
        let (outcome, consumed) = scanCore(bytes)
        if case .found(let negotiated) = outcome {
            keepRemainder(negotiated, pending: Data(UnsafeRawBufferPointer(rebasing: bytes[consumed...])))
        }
        return outcome
    }

    private mutating func keepRemainder(_ negotiated: NegotiatedTLS, pending: Data) {
        remainder = Remainder(negotiated: negotiated, assembler: assembler, pending: pending)
        assembler = TLSHandshakeAssembler(framing: assembler.framing, maxBodyBytes: 0)
    }

    private mutating func scanCore(_ bytes: UnsafeRawBufferPointer) -> (Outcome, Int) {
        var offset = 0
        while true {
            switch assembler.next(bytes, &offset) {
            case .needMoreBytes:
                return (.needMoreBytes, offset)
            case .messageHeader(let type, let length):
                guard type == TLSWire.serverHello else { return (settle(.notServerHello), offset) }
                guard length <= Self.maxHelloBytes else { return (settle(.tooLarge), offset) }
            case .messageBody(_, _, let body):
                let reading = assembler.withBody(body, in: bytes) { Self.read($0) }
                fingerprints = reading.map { ServerHelloFingerprints($0.traits) }
                return (settle(reading.map { .found($0.negotiated) } ?? .unavailable(.malformed)), offset)
            case .alert(let level, let description):
                // A warning before the hello is not the server's last word: some servers send
                // unrecognized_name as one and go on with their ServerHello (RFC 6066 §3 allows it).
                if level == TLSWire.warningAlertLevel, description != TLSWire.closeNotify, !assembler.isInsideMessage {
                    continue
                }
                return (settle(.alert(description: description)), offset)
            case .otherRecord, .failure(.notTLS):
                return (settle(assembler.isInsideMessage ? .malformed : .notTLSHandshake), offset)
            case .failure(.malformed):
                return (settle(.malformed), offset)
            case .failure(.recordTooLarge):
                return (settle(.tooLarge), offset)
            }
        }
    }

    private mutating func settle(_ reason: Reason) -> Outcome { settle(.unavailable(reason)) }

    private mutating func settle(_ outcome: Outcome) -> Outcome {
        settled = outcome
        return outcome
    }

    /// Reads a ServerHello body, and what its JA3S is made of; nil when it is malformed.
    ///
    /// Grammar (RFC 8446 §4.1.3; RFC 5246 §7.4.1.3, where the extensions block may be absent):
    ///   legacy_version(2) · random(32) · legacy_session_id_echo<0..32> · cipher_suite(2) ·
    ///   legacy_compression_method(1) · [extensions<0..2^16-1>]
    ///   supported_versions here is one selected_version(2) (RFC 8446 §4.2.1).
    /// A TLS 1.3 draft's own version there (0x7F..) is the drafts' layout, without session id and
    /// compression method: version(2) · random(32) · cipher_suite(2) · extensions (draft-ietf-
    /// tls-tls13-21 §4.1.3; drafts from 22 on send 0x0303 and the final layout), as Zeek
    /// (`ServerHello13`, tls-handshake-protocol.pac) and Wireshark read it.
    static func read(_ body: UnsafeRawBufferPointer) -> (negotiated: NegotiatedTLS, traits: ServerHelloTraits)? {
        var reader = TLSByteReader(body)
        guard let legacyVersion = reader.readUInt16(), let random = reader.readBytes(32) else { return nil }
        let draftLayout = legacyVersion >> 8 == 0x7F
        if !draftLayout {
            guard let sessionID = reader.readVector(lengthBytes: 1), sessionID.remaining <= 32 else { return nil }
        }
        guard let cipherSuite = reader.readUInt16() else { return nil }
        if !draftLayout {
            guard reader.readUInt8() != nil else { return nil }
        }
        var selected: UInt16?
        var extensionTypes: [UInt16] = []
        if !reader.isAtEnd {
            guard var extensions = reader.readVector(lengthBytes: 2), reader.isAtEnd else { return nil }
            while !extensions.isAtEnd {
                guard let type = extensions.readUInt16(), var data = extensions.readVector(lengthBytes: 2) else {
                    return nil
                }
                if !TLSWire.isGREASE(type) { extensionTypes.append(type) }
                guard type == TLSWire.supportedVersionsExtension else { continue }
                guard selected == nil, let value = data.readUInt16(), data.isAtEnd else { return nil }
                selected = value
            }
        }
        let negotiated = NegotiatedTLS(version: TLSProtocolVersion(rawValue: selected ?? legacyVersion),
                                       cipherSuite: TLSCipherSuite(rawValue: cipherSuite),
                                       fromHelloRetryRequest: random.elementsEqual(TLSWire.helloRetryRequestRandom),
                                       source: .serverHello)
        return (negotiated, ServerHelloTraits(legacyVersion: legacyVersion, cipherSuite: cipherSuite, extensionTypes: extensionTypes))
    }
}
