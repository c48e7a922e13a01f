/// Where one decrypted chunk landed: the file's sequence (its identity, `PlaintextFileName`) and
/// the offset of its record header, never 0 (the global header is there).
public struct PlaintextLocation: Sendable, Hashable, Codable {
    public let fileSequence: UInt32
    public let recordOffset: UInt64

    public init(fileSequence: UInt32, recordOffset: UInt64) {
        self.fileSequence = fileSequence
        self.recordOffset = recordOffset
    }
}
