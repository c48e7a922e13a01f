import Foundation
import Shared

/// What one event of a termination asks the relay to do, in this order: bytes to the server's
/// socket, bytes to the device's stream, the plaintext to keep, the facts to record, the closes.
package struct TLSTerminationStep: Sendable, Equatable {
    /// TLS records of our client leg, for the server's socket.
    package var toServer = Data()
    /// TLS records of our server leg, for the device's stream.
    package var toDevice = Data()
    /// What crossed in the clear, in the order it crossed.
    package var plaintext: [DecryptedPiece] = []
    /// What the real server chose on the upstream leg, once.
    package var upstreamTLS: NegotiatedTLS?
    /// What the client and our leaf negotiated, once.
    package var leafTLS: NegotiatedTLS?
    /// How the real server ended its side, once.
    package var serverEnding: TLSStreamEnding?
    /// How the attempt went, once.
    package var outcome: TLSTerminationOutcome?
    /// Half-close the server's socket (after `toServer`).
    package var closeServerSend = false
    /// End the device's stream with our FIN (after `toDevice`).
    package var closeDeviceSend = false
    /// The termination is over before its natural end.
    package var ending: Ending?

    package enum Ending: Sendable, Equatable {
        /// Reset the device, close the server: the end the device is owed (the server reset, or a
        /// failure that left nothing better to give it).
        case abort
        /// Nothing was said to the device yet: the flow goes back to plain passthrough over a fresh
        /// connection, and these — every byte the device sent — go first.
        case rollback(Data)
    }

    package init() {}
}

/// A piece of plaintext and the way it went.
package struct DecryptedPiece: Sendable, Equatable {
    package let bytes: Data
    package let direction: Direction

    package init(_ bytes: Data, _ direction: Direction) {
        self.bytes = bytes
        self.direction = direction
    }
}
