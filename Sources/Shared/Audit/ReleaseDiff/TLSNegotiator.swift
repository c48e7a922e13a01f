/// Whose handshake a TLS version reading tells of (audit.md § Release diff). The two are compared
/// apart: a release that moves its own handshakes says nothing of the tunnel's, and the reverse.
package enum TLSNegotiator: String, Sendable, Hashable, CaseIterable {
    /// The app's own handshake with the server: a ServerHello read off the wire, or a QUIC
    /// version the server answered with.
    case app
    /// The tunnel's connection to the real server on an inspected flow.
    case tunnel

    /// The negotiator of a server answer's source. nil for the tunnel's leaf: that version is what
    /// the tunnel itself offered the app, neither the app's nor the tunnel's word with the server.
    package init?(_ source: TLSAnswerSource) {
        switch source {
        case .serverHello: self = .app
        case .upstreamConnection: self = .tunnel
        case .tunnelLeaf: return nil
        }
    }
}
