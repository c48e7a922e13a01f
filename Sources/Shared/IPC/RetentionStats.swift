/// What the retention the tunnel applies when the capture rotates did (seeds/003 § PipelineStats):
/// the runtime's, not the pipeline's, carried beside the pipeline's counters because a sweep that
/// fails with nobody watching has nowhere else to be counted. Absent until a build sweeps.
public struct RetentionStats: Codable, Sendable, Equatable {
    /// Capture files deleted by retention when the capture rotated.
    public var capturesReclaimed: UInt64
    /// Retention sweeps, or deletions within one, that failed.
    public var retentionFailures: UInt64
    /// The last retention failure, as the person should read it.
    public var lastRetentionError: String?

    public init(capturesReclaimed: UInt64 = 0, retentionFailures: UInt64 = 0, lastRetentionError: String? = nil) {
        self.capturesReclaimed = capturesReclaimed
        self.retentionFailures = retentionFailures
        self.lastRetentionError = lastRetentionError
    }

    /// Retention on, nothing swept yet.
    public static let zero = RetentionStats()
}
