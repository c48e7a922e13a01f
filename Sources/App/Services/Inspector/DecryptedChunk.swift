import Foundation
import Shared

/// One piece of an inspected flow's decrypted content, as the history kept it: which way it went,
/// when, the bytes stored, and how many the piece carried (more when the budget cut it).
package struct DecryptedChunk: Sendable, Equatable {
    package let direction: Direction
    package let timestamp: Date
    /// The bytes kept; fewer than `originalLength` when the flow's budget ran out here.
    package let bytes: Data
    package let originalLength: Int

    package init(direction: Direction, timestamp: Date, bytes: Data, originalLength: Int) {
        self.direction = direction
        self.timestamp = timestamp
        self.bytes = bytes
        self.originalLength = originalLength
    }

    /// The piece was cut: what follows it in its direction was not kept.
    package var isTruncated: Bool { bytes.count < originalLength }
}
