import Foundation
import Shared

/// Both sides of one QUIC flow's handshake, read from its Initials: the client's hello (its name
/// and offer, `QUICClientHelloReader`) and the server's answer (`QUICServerHelloReader`, whose
/// keys come from the client's Initials). Each side's outcome is handed out once it settles.
package struct QUICHandshakeReader: Sendable {
    package private(set) var client = QUICClientHelloReader()
    package private(set) var server = QUICServerHelloReader()
    private var clientTaken = false
    private var serverTaken = false

    package init() {}

    /// Both sides settled and handed out: nothing more to read.
    package var isSettled: Bool { clientTaken && serverTaken }

    /// A datagram the client sent: its hello, and where the server's keys come from.
    package mutating func readClient(_ datagram: Data) -> QUICInitialCounts {
        if server.outcome == .needMoreInitials, let header = try? QUICInitialHeader(datagram: datagram) {
            server.clientInitial(header)
        }
        return client.read(datagram: datagram)
    }

    /// A datagram the server sent.
    package mutating func readServer(_ datagram: Data) -> QUICInitialCounts { server.read(datagram: datagram) }

    /// The client's outcome, once, when it has settled.
    package mutating func takeClientOutcome() -> QUICClientHelloReader.Outcome? {
        guard !clientTaken, client.outcome != .needMoreInitials else { return nil }
        clientTaken = true
        return client.outcome
    }

    /// The server's outcome, once, when it has settled.
    package mutating func takeServerOutcome() -> QUICServerHelloReader.Outcome? {
        guard !serverTaken, server.outcome != .needMoreInitials else { return nil }
        serverTaken = true
        return server.outcome
    }
}
