/// How the real server ended its side of an inspected flow — what the tunnel, as its TLS client,
/// saw — and so what the client was given in turn: the same kind of end, never a cleaner one.
/// Raw values are disk format.
package enum TLSStreamEnding: UInt8, Sendable, Hashable, Codable, CaseIterable {
    /// close_notify, then the end of the stream: everything the server meant to send arrived.
    case closeNotify = 0
    /// The stream ended without close_notify (RFC 8446 §6.1): the content may be truncated.
    case withoutCloseNotify = 1
    /// The connection was reset.
    case reset = 2
    /// The server sent a fatal alert mid-stream; the client, which cannot be handed an alert
    /// sealed with keys it does not share with the server, is reset.
    case fatalAlert = 3
}
