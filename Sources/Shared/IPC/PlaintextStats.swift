/// What keeping decrypted content on disk did (spec-notes/plaintext.md). `PipelineStats` carries
/// it only while a session keeps decrypted content: otherwise the group is absent, never zeros.
package struct PlaintextStats: Codable, Sendable, Equatable {
    /// Chunks of decrypted content written to disk.
    package var plaintextChunksWritten: UInt64
    /// Chunks of decrypted content deleted for their age.
    package var plaintextChunksExpired: UInt64
    /// Bytes of decrypted content stored (after the per-flow budget and the per-record cap).
    package var plaintextBytesStored: UInt64 = 0
    /// Bytes the per-flow, per-direction budget did not keep (the beginning is kept).
    package var plaintextBytesTruncated: UInt64 = 0
    /// Chunks refused before touching disk: their flow was no longer in the table.
    package var plaintextChunksRefused: UInt64 = 0
    /// Writes that failed; the first one stops keeping decrypted content for the session.
    package var plaintextWriteFailures: UInt64 = 0
    /// Files the sweep deleted (orphans and ceiling victims).
    package var plaintextFilesReclaimed: UInt64 = 0
    /// Keeping decrypted content stopped on a failure (`lastPlaintextError` says which).
    package var plaintextDisabledByFailure = false
    package var lastPlaintextError: String?

    package init(plaintextChunksWritten: UInt64 = 0, plaintextChunksExpired: UInt64 = 0) {
        self.plaintextChunksWritten = plaintextChunksWritten
        self.plaintextChunksExpired = plaintextChunksExpired
    }

    /// Persistence on, nothing written yet.
    package static let zero = PlaintextStats()

    enum CodingKeys: String, CodingKey {
        case plaintextChunksWritten, plaintextChunksExpired, plaintextBytesStored, plaintextBytesTruncated,
             plaintextChunksRefused, plaintextWriteFailures, plaintextFilesReclaimed, plaintextDisabledByFailure, lastPlaintextError
    }

    /// A group from an older tunnel lacks the later counters: they read as 0.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        plaintextChunksWritten = try container.decode(UInt64.self, forKey: .plaintextChunksWritten)
        plaintextChunksExpired = try container.decode(UInt64.self, forKey: .plaintextChunksExpired)
        plaintextBytesStored = try container.decodeIfPresent(UInt64.self, forKey: .plaintextBytesStored) ?? 0
        plaintextBytesTruncated = try container.decodeIfPresent(UInt64.self, forKey: .plaintextBytesTruncated) ?? 0
        plaintextChunksRefused = try container.decodeIfPresent(UInt64.self, forKey: .plaintextChunksRefused) ?? 0
        plaintextWriteFailures = try container.decodeIfPresent(UInt64.self, forKey: .plaintextWriteFailures) ?? 0
        plaintextFilesReclaimed = try container.decodeIfPresent(UInt64.self, forKey: .plaintextFilesReclaimed) ?? 0
        plaintextDisabledByFailure = try container.decodeIfPresent(Bool.self, forKey: .plaintextDisabledByFailure) ?? false
        lastPlaintextError = try container.decodeIfPresent(String.self, forKey: .lastPlaintextError)
    }
}
