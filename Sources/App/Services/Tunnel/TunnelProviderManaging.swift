import Foundation

/// The shell under the monitoring control (seeds/000 § Tunnel control, The injected shell): it
/// sets up, starts and stops the service and carries control messages, and decides nothing.
/// Every failure is a `TunnelControlError` — the mapping from what the system said is the
/// shell's (`TunnelControlError.classifying`).
package protocol TunnelProviderManaging: Sendable {
    func loadStatus() async throws(TunnelControlError) -> TunnelStatus
    /// Sets up the service for `configuration`: where iOS asked the person, Linux checks rights.
    func install(_ configuration: TunnelConfiguration) async throws(TunnelControlError)
    /// Returns once monitoring is live, or throws why it is not.
    func start() async throws(TunnelControlError)
    func stop() async throws(TunnelControlError)
    /// One encoded `ControlCommand` out, its encoded reply back; nil when no service is running.
    func sendControl(_ payload: Data) async throws(TunnelControlError) -> Data?
    /// Every status change from now on, until the stream is let go.
    func statusUpdates() -> AsyncStream<TunnelStatus>
}
