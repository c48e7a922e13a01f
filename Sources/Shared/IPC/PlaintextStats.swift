/// What keeping decrypted content on disk did (spec-notes/plaintext.md). `PipelineStats` carries
/// it only once a build writes plaintext: until then the group is absent, never zeros.
public struct PlaintextStats: Codable, Sendable, Equatable {
    /// Chunks of decrypted content written to disk.
    public var plaintextChunksWritten: UInt64
    /// Chunks of decrypted content deleted for their age.
    public var plaintextChunksExpired: UInt64

    public init(plaintextChunksWritten: UInt64 = 0, plaintextChunksExpired: UInt64 = 0) {
        self.plaintextChunksWritten = plaintextChunksWritten
        self.plaintextChunksExpired = plaintextChunksExpired
    }

    /// Persistence on, nothing written yet.
    public static let zero = PlaintextStats()
}
