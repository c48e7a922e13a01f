import Shared

/// What the monitoring control starts (seeds/000 § Tunnel control, The configuration): the
/// target and whether to inspect TLS. The seed's profile fields (bundle identifier, server
/// address, profile name) name a VPN profile iOS shows; on Linux the service is named by its
/// data directory, which the manager holds, so what remains is what the person chose.
package struct TunnelConfiguration: Sendable, Equatable {
    package var target: MonitoringTarget
    /// TLS inspection with the person's local CA, for the routed targets only.
    package var inspect: Bool
    /// Whether each connection's program is asked of the kernel (`up --no-programs` says no).
    package var namesPrograms: Bool

    package init(target: MonitoringTarget, inspect: Bool = false, namesPrograms: Bool = true) {
        self.target = target
        self.inspect = inspect
        self.namesPrograms = namesPrograms
    }

    /// The host, not inspected: what Start does before Settings picks anything else.
    package static let `default` = TunnelConfiguration(target: .host)

    /// Refuses a target that cannot exist, and inspection where nothing is relayed.
    package func validate() throws(TunnelControlError) {
        if let invalidity = target.invalidity { throw .configurationFailed(invalidity) }
        if inspect && target.isPassive {
            throw .configurationFailed("\(target) cannot be inspected: watching an interface relays nothing, so no TLS is "
                                       + "terminated (choose a routed target: --host, --netns or --pid)")
        }
    }
}
