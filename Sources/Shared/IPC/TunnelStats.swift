/// The answer to `ControlCommand.stats`: each half of the tunnel reports on what it is
/// responsible for — the pipeline what it recorded, the relay what it forwarded and inspected.
public struct TunnelStats: Codable, Sendable, Equatable {
    /// What the pipeline recorded.
    public var pipeline: PipelineStats
    /// What the relay forwarded and inspected; nil when there is no relay to ask (stopping closes
    /// it before the pipeline). Zeros would claim nothing was inspected all session.
    public var relay: RelayStats?
    /// The resolvers the tunnel announced; nil when nobody asked the system (for the same reason:
    /// an empty `announced` claims the namespace has no name resolution).
    public var resolvers: ResolverStatus?
    /// What the control server refused and answered; filled by the server itself as it answers
    /// (`ControlServer`), nil from anything else.
    public var control: ControlStats? = nil

    public init(pipeline: PipelineStats = .zero, relay: RelayStats? = nil, resolvers: ResolverStatus? = nil) {
        self.pipeline = pipeline
        self.relay = relay
        self.resolvers = resolvers
    }
}
