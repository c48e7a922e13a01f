import Foundation

/// What the shell must do after a `TCPRelayFlow` event, in the order given.
package enum TCPRelayAction: Sendable, Equatable {
    /// Open the kernel socket to the server; answer with `serverDidConnect` or `serverDidFail`.
    case connectToServer
    /// Queue these bytes for the server socket, after everything queued before; report what the
    /// kernel takes with `serverDidDrain(byteCount:)`.
    case sendToServer(Data)
    /// `shutdown(SHUT_WR)` once every queued byte is written: the device sent its FIN.
    case closeServerSend
    /// Emit this segment toward the device (`OutboundSegment.emit`, server → device).
    case segmentToDevice(OutboundSegment)
    /// Stop reading the server socket: the device-bound buffer is full.
    case pauseServerReads
    /// Read the server socket again, at most `TCPRelayFlow.serverReadAllowance` bytes at a time.
    case resumeServerReads
    /// Close the server socket (with a reset when the ending `resetsServer`), cancel the flow's
    /// timer and forget the flow. Always the last action.
    case teardown(TCPRelayEnding)
}

/// Why a relayed connection ended: one diagnostics counter each.
package enum TCPRelayEnding: Sendable, Equatable {
    /// Both FINs sent and acknowledged.
    case completed
    /// The device sent RST.
    case deviceReset
    /// The first segment of the flow was not a SYN; answered with RST when it was not one itself.
    case notASyn
    /// The server could not be reached; the device got RST+ACK (connection refused).
    case serverRefused
    /// The server connection failed after it was up; the device got RST.
    case serverFailed
    /// The device stopped acknowledging: `Config.maxRetransmits` timeouts in a row; it got RST.
    case retransmitsExhausted
    /// The shell handed more server bytes than `serverReadAllowance` allowed; the device got RST.
    case deviceBufferOverflow

    /// Whether the server is told with a reset rather than an end of stream: the device reset
    /// its side, or the relay gave the device a reset of its own (it stopped answering, or
    /// overflowed its buffer). A reset the client sent reaches the server as a reset, as it
    /// would without the tunnel; a server that failed or refused has nothing left to tell.
    package var resetsServer: Bool {
        switch self {
        case .deviceReset, .retransmitsExhausted, .deviceBufferOverflow: true
        case .completed, .notASyn, .serverRefused, .serverFailed: false
        }
    }
}
