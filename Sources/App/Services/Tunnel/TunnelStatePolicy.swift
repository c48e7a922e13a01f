/// The two decisions of the monitoring control (seeds/000 § Tunnel control), pure.
package enum TunnelStatePolicy {
    /// The state a freshly loaded status means.
    package static func state(for status: TunnelStatus) -> TunnelState {
        switch status {
        case .notInstalled: .notInstalled
        case .disconnected: .off
        // Reasserting carries no traffic: calling it live would be a lie the person can catch.
        case .connecting, .reasserting: .starting
        case .connected: .live
        case .disconnecting: .stopping
        }
    }

    /// The state after a status change, keeping a failure visible until the person acts: the
    /// stopped status that came with the failure does not clear it; only an active status (or an
    /// explicit retry, which is the controller's) does.
    package static func next(from current: TunnelState, status: TunnelStatus) -> TunnelState {
        if case .failed = current, status == .disconnected || status == .notInstalled { return current }
        return state(for: status)
    }
}
