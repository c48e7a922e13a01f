import Foundation
import Shared

/// What opening one datagram's Initial packets did, for the counters (`QUICNameStats`).
package struct QUICInitialCounts: Sendable, Equatable {
    package var initialsSeen = 0
    package var initialsOpened = 0
    package var initialsUnopenable = 0

    package init() {}

    /// What one Initial's reader made of it.
    package enum Reading {
        /// Opened and taken; `more` says whether the reader wants the next packets.
        case opened(more: Bool)
        case unopenable
    }

    /// Walks the Initials coalesced in `datagram` (RFC 9000 §12.2), each handed to `read` with
    /// its header, until one is not an Initial or `read` wants no more; counts what it did.
    package static func walk(_ datagram: Data, _ read: (Data, QUICInitialHeader) -> Reading) -> QUICInitialCounts {
        var counts = QUICInitialCounts()
        var rest = datagram[...]
        while !rest.isEmpty, let header = try? QUICInitialHeader(datagram: rest) {
            counts.initialsSeen += 1
            switch read(rest, header) {
            case .unopenable:
                counts.initialsUnopenable += 1
            case .opened(let more):
                counts.initialsOpened += 1
                guard more else { return counts }
            }
            rest = rest.dropFirst(header.totalLength)
        }
        return counts
    }
}
