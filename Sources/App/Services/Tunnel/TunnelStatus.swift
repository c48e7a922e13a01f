/// Where the monitoring service stands, as its manager reports it (seeds/000 § Tunnel control):
/// the transport's own states, mirrored so the decisions above never touch the shell.
package enum TunnelStatus: String, Sendable, Equatable, CaseIterable {
    /// No service has been set up for this data directory yet.
    case notInstalled
    case disconnected
    case connecting
    case connected
    /// Re-establishing after a change under it (the uplink, the target's routes): not carrying
    /// traffic meanwhile.
    case reasserting
    case disconnecting
}
