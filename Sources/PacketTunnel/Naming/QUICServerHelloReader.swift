import Foundation
import Shared

/// Reads what a QUIC server answered the client's hello, from the server's Initial packets
/// (RFC 9001 §4, §5.2): the ServerHello's version and cipher suite, or the TLS alert of a
/// CONNECTION_CLOSE refusing it — what TCP flows get from `ServerHelloScanner` over records.
///
/// The server's Initial keys, like the client's, come from the DCID of the client's first
/// Initial, so the reader is told each client Initial's header (`clientInitial`). Which first
/// Initial: after a Retry, the client's next Initials go to the Retry's SCID and keys come from
/// it (RFC 9001 §5.2); after Version Negotiation, or a server answering in another compatible
/// version (RFC 9368), the client's first Initial of the server's version, else its very first.
/// When those keys do not open a packet, the other candidates are tried: the Retry's tag is not
/// checked, so a forged one must not blind the reader.
///
/// A pure value per flow, fed the server's datagrams in order; it settles once.
package struct QUICServerHelloReader: Sendable {
    package enum Outcome: Sendable, Equatable {
        /// Nothing settled yet: more Initials are needed.
        case needMoreInitials
        case answered(NegotiatedTLS)
        /// A CONNECTION_CLOSE carrying a TLS alert (CRYPTO_ERROR 0x0100 + alert) came first.
        case refused(alert: UInt8)
        /// The Initials could not be opened, their stream was not a ServerHello or exceeded the
        /// budget, or the server closed without an alert.
        case incomplete
    }

    /// The CRYPTO_ERROR range: 0x0100 + a TLS alert (RFC 9000 §20.1).
    static let cryptoErrors: ClosedRange<UInt64> = 0x0100...0x01ff

    private var firstConnectionID: Data?
    /// The DCID of the client's first Initial in each version (a Version Negotiation restarts).
    private var firstConnectionIDByVersion: [QUICVersion: Data] = [:]
    private var retryConnectionID: Data?
    /// The keys that opened the last server Initial, and the ID they came from.
    private var keys: (connectionID: Data, keys: QUICInitialKeys)?
    private var largestPacketNumber: UInt64?
    private var crypto = QUICCryptoStream()
    private var scanner = ServerHelloScanner(framing: .handshakeMessages)
    private var fedLength = 0
    package private(set) var outcome: Outcome = .needMoreInitials
    /// The ServerHello's JA3S, once read.
    package var fingerprints: ServerHelloFingerprints? { scanner.fingerprints }

    package init() {}

    /// A client Initial's header, read by the client's side: where keys may come from.
    package mutating func clientInitial(_ header: QUICInitialHeader) {
        if firstConnectionID == nil { firstConnectionID = header.destinationConnectionID }
        if firstConnectionIDByVersion[header.version] == nil {
            firstConnectionIDByVersion[header.version] = header.destinationConnectionID
        }
    }

    /// Whether a client Initial was seen: without one there are no keys to open the server's.
    package var knowsConnectionID: Bool { firstConnectionID != nil }

    /// Reads one datagram the server sent: its Initials, coalesced ones included, or a Retry.
    package mutating func read(datagram: Data) -> QUICInitialCounts {
        guard outcome == .needMoreInitials else { return QUICInitialCounts() }
        // A client accepts one Retry at most (RFC 9000 §17.2.5.2), and it fills its datagram.
        if let retry = QUICRetryHeader(datagram: datagram) {
            if retryConnectionID == nil, firstConnectionID != nil { retryConnectionID = retry.sourceConnectionID }
            return QUICInitialCounts()
        }
        // Initials come first in a datagram: the walk ends at a Handshake packet.
        return QUICInitialCounts.walk(datagram) { packet, header in
            guard let opened = open(packet, header) else { return .unopenable }
            largestPacketNumber = max(largestPacketNumber ?? 0, opened.packetNumber)
            feed(crypto.receive(opened))
            return .opened(more: outcome == .needMoreInitials)
        }
    }

    /// Opens the Initial with the keys that opened the last one, else with each candidate's.
    private mutating func open(_ datagram: Data, _ header: QUICInitialHeader) -> QUICInitialPacket? {
        if let keys, keys.keys.version == header.version,
           let packet = try? QUICInitialPacket(datagram: datagram, header: header, keys: keys.keys, largestPacketNumber: largestPacketNumber) {
            return packet
        }
        let candidates = [retryConnectionID, firstConnectionIDByVersion[header.version], firstConnectionID].compactMap { $0 }
        var tried: [Data] = []
        for connectionID in candidates where !tried.contains(connectionID) {
            tried.append(connectionID)
            if let keys, keys.connectionID == connectionID, keys.keys.version == header.version { continue }
            guard let derived = QUICInitialKeys(version: header.version, clientDestinationConnectionID: connectionID, sender: .server),
                  let packet = try? QUICInitialPacket(datagram: datagram, header: header, keys: derived, largestPacketNumber: nil)
            else { continue }
            // Other keys, another packet-number space.
            keys = (connectionID, derived)
            largestPacketNumber = nil
            return packet
        }
        return nil
    }

    private mutating func feed(_ progress: QUICCryptoStream.Progress) {
        switch progress {
        case .nothingNew:
            return
        case .delivered(let range):
            scan(upTo: range.upperBound)
        case .refused(let refusal):
            // What came before the frame that stopped the stream is read first: a ServerHello
            // then a CONNECTION_CLOSE in one packet was an answer.
            scan(upTo: crypto.contiguousLength)
            guard outcome == .needMoreInitials else { return }
            if case .frames(.connectionClose(let code)) = refusal, Self.cryptoErrors.contains(code) {
                outcome = .refused(alert: UInt8(code - Self.cryptoErrors.lowerBound))
            } else {
                outcome = .incomplete
            }
        }
    }

    /// Feeds the scanner the stream's contiguous bytes it has not seen, up to `end`.
    private mutating func scan(upTo end: Int) {
        guard fedLength < end else { return }
        let range = fedLength..<end
        fedLength = end
        switch crypto.withBytes(in: range, { scanner.scan($0) }) {
        case .needMoreBytes: break
        case .found(let negotiated): outcome = .answered(negotiated)
        case .unavailable: outcome = .incomplete
        }
    }
}
