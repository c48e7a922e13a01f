import Foundation

/// One row of the decrypted-content index, as the store reads it back: the way into the `.tvpt`
/// record (`PlaintextLibrary` checks the record against `stream` and both lengths).
public struct StoredPlaintextChunk: Sendable, Hashable {
    public let id: Int64
    public let flowID: Int64
    /// Absolute.
    public let timestamp: Date
    public let direction: Direction
    public let stream: UInt64
    public let location: PlaintextLocation
    public let storedLength: UInt32
    public let originalLength: UInt32

    public init(id: Int64, flowID: Int64, timestamp: Date, direction: Direction, stream: UInt64, location: PlaintextLocation,
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

    public var isTruncated: Bool { storedLength < originalLength }
}
