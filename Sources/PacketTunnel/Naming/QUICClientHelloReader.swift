import Foundation
import Shared

/// Reads the ClientHello a QUIC client carries in its Initial packets (RFC 9001 §4, §5.2): opens
/// each Initial with keys derived once from the connection's first Destination Connection ID,
/// reassembles the CRYPTO frames within `QUICCryptoStream`'s budget, and hands the contiguous
/// stream to the same `ClientHelloScanner` TCP flows use, with handshake-message framing.
///
/// A pure value per flow, fed the client's datagrams in order; it settles once, on a name, a hello
/// without one, or a failure.
package struct QUICClientHelloReader: Sendable {
    package enum Outcome: Sendable, Equatable {
        /// Nothing settled yet: more Initials are needed.
        case needMoreInitials
        case named(String, offer: ClientTLSOffer?)
        /// A whole hello without a usable name (or not a ClientHello at all).
        case unnamed(offer: ClientTLSOffer?)
        /// The Initials could not be opened or their stream exceeded the budget.
        case incomplete
    }

    private var keys: QUICInitialKeys?
    private var largestPacketNumber: UInt64?
    private var crypto = QUICCryptoStream()
    private var scanner = ClientHelloScanner(framing: .handshakeMessages)
    private var fedLength = 0
    package private(set) var outcome: Outcome = .needMoreInitials
    /// The hello's JA4 ("q…") and JA3, once read, when its offer was sound.
    package var fingerprints: ClientHelloFingerprints? { scanner.fingerprints }

    package init() {}

    /// Reads one datagram the client sent; coalesced packets after the first are read too.
    package mutating func read(datagram: Data) -> QUICInitialCounts {
        guard outcome == .needMoreInitials else { return QUICInitialCounts() }
        return QUICInitialCounts.walk(datagram) { packet, header in
            if keys == nil {
                keys = QUICInitialKeys(version: header.version, clientDestinationConnectionID: header.destinationConnectionID)
            }
            guard let keys, let opened = try? QUICInitialPacket(datagram: packet, header: header, keys: keys,
                                                              largestPacketNumber: largestPacketNumber) else { return .unopenable }
            largestPacketNumber = max(largestPacketNumber ?? 0, opened.packetNumber)
            feed(crypto.receive(opened))
            return .opened(more: outcome == .needMoreInitials)
        }
    }

    private mutating func feed(_ progress: QUICCryptoStream.Progress) {
        switch progress {
        case .nothingNew:
            return
        case .refused:
            outcome = .incomplete
        case .delivered(let range):
            let start = max(range.lowerBound, fedLength)
            guard start < range.upperBound else { return }
            fedLength = range.upperBound
            let scanned = crypto.withBytes(in: start..<range.upperBound) { scanner.scan($0) }
            switch scanned {
            case .needMoreBytes: break
            case .found(let name): outcome = .named(name, offer: scanner.offer)
            case .unavailable: outcome = .unnamed(offer: scanner.offer)
            }
        }
    }
}
