/// The answer to `ControlCommand.stats`: each half of the tunnel reports on what it is
/// responsible for — the pipeline what it recorded, the relay what it forwarded and inspected, the
/// shell what its device and sockets refused.
package struct TunnelStats: Codable, Sendable, Equatable {
    /// What the pipeline recorded.
    package var pipeline: PipelineStats
    /// What the relay forwarded and inspected; nil when there is no relay to ask (stopping closes
    /// it before the pipeline). Zeros would claim nothing was inspected all session.
    package var relay: RelayStats?
    /// The resolvers the tunnel announced; nil when nobody asked the system (for the same reason:
    /// an empty `announced` claims the namespace has no name resolution).
    package var resolvers: ResolverStatus?
    /// What the control server refused and answered; filled by the server itself as it answers
    /// (`ControlServer`), nil from anything else.
    package var control: ControlStats? = nil
    /// What the TUN device and the relay's sockets refused; nil when the tunnel did not say (one
    /// from before these counters): zeros would claim nothing was dropped.
    package var shell: ShellStats?

    package init(pipeline: PipelineStats = .zero, relay: RelayStats? = nil, resolvers: ResolverStatus? = nil,
                shell: ShellStats? = nil) {
        self.pipeline = pipeline
        self.relay = relay
        self.resolvers = resolvers
        self.shell = shell
    }
}
