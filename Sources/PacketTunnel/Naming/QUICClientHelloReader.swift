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

    /// What opening this datagram's packets did, for the counters.
    package struct Counts: Sendable, Equatable {
        package var initialsSeen = 0
        package var initialsOpened = 0
        package var initialsUnopenable = 0
    }

    private var keys: QUICInitialKeys?
    private var largestPacketNumber: UInt64?
    private var crypto = QUICCryptoStream()
    private var scanner = ClientHelloScanner(framing: .handshakeMessages)
    private var fedLength = 0
    package private(set) var outcome: Outcome = .needMoreInitials

    package init() {}

    /// Reads one datagram the client sent; coalesced packets after the first are read too.
    package mutating func read(datagram: Data) -> Counts {
        var counts = Counts()
        guard outcome == .needMoreInitials else { return counts }
        var rest = datagram[...]
        while !rest.isEmpty, outcome == .needMoreInitials {
            guard let header = try? QUICInitialHeader(datagram: rest) else { break }
            counts.initialsSeen += 1
            if keys == nil {
                keys = QUICInitialKeys(version: header.version, clientDestinationConnectionID: header.destinationConnectionID)
            }
            guard let keys, let packet = try? QUICInitialPacket(datagram: rest, header: header, keys: keys,
                                                              largestPacketNumber: largestPacketNumber) else {
                counts.initialsUnopenable += 1
                rest = rest.dropFirst(header.totalLength)
                continue
            }
            counts.initialsOpened += 1
            largestPacketNumber = max(largestPacketNumber ?? 0, packet.packetNumber)
            feed(crypto.receive(packet))
            rest = rest.dropFirst(header.totalLength)
        }
        return counts
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
