import Foundation
import Shared

/// One piece of an inspected flow's decrypted content, as the history kept it: which way it went,
/// when, the bytes stored, and how many the piece carried (more when the budget cut it).
public struct DecryptedChunk: Sendable, Equatable {
    public let direction: Direction
    public let timestamp: Date
    /// The bytes kept; fewer than `originalLength` when the flow's budget ran out here.
    public let bytes: Data
    public let originalLength: Int

    public init(direction: Direction, timestamp: Date, bytes: Data, originalLength: Int) {
        self.direction = direction
        self.timestamp = timestamp
        self.bytes = bytes
        self.originalLength = originalLength
    }

    /// The piece was cut: what follows it in its direction was not kept.
    public var isTruncated: Bool { bytes.count < originalLength }
}
