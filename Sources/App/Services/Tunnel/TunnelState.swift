/// What a screen renders of monitoring (seeds/000 § Tunnel control). Not `TunnelStatus`: it
/// folds the transport detail a person does not care about, and adds the failures the manager
/// reports by throwing — as a value, so the screen can show it and offer to try again.
package enum TunnelState: Sendable, Equatable {
    /// Nothing set up yet: the screen invites the first start.
    case notInstalled
    /// Set up and stopped.
    case off
    /// Connecting or reasserting: not carrying traffic yet, so never called live.
    case starting
    case live
    case stopping
    /// Something the person can act on; the screen offers Try again.
    case failed(TunnelControlError)

    /// Whether monitoring is carrying traffic now.
    package var isLive: Bool { self == .live }
}
