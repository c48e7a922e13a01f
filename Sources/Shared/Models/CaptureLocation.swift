/// Where a captured packet's bytes are: the capture file's sequence number and the offset of the
/// record header inside it. Always the pair — every file restarts offsets, so an offset alone
/// names nothing. `recordOffset` is never 0: the 24-byte global header comes first.
public struct CaptureLocation: Sendable, Hashable, Codable {
    public let fileSequence: UInt32
    public let recordOffset: UInt64

    public init(fileSequence: UInt32, recordOffset: UInt64) {
        self.fileSequence = fileSequence
        self.recordOffset = recordOffset
    }
}
