import Foundation

/// One row of the decrypted-content index, as the store reads it back: the way into the `.tvpt`
/// record (`PlaintextLibrary` checks the record against `stream` and both lengths).
package struct StoredPlaintextChunk: Sendable, Hashable {
    package let id: Int64
    package let flowID: Int64
    /// Absolute.
    package let timestamp: Date
    package let direction: Direction
    package let stream: UInt64
    package let location: PlaintextLocation
    package let storedLength: UInt32
    package let originalLength: UInt32

    package init(id: Int64, flowID: Int64, timestamp: Date, direction: Direction, stream: UInt64, location: PlaintextLocation,
                storedLength: UInt32, originalLength: UInt32) {
        self.id = id
        self.flowID = flowID
        self.timestamp = timestamp
        self.direction = direction
        self.stream = stream
        self.location = location
        self.storedLength = storedLength
        self.originalLength = originalLength
    }

    package var isTruncated: Bool { storedLength < originalLength }
}
