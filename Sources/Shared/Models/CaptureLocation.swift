/// Where a captured packet's bytes are: the capture file's sequence number and the offset of the
/// record header inside it. Always the pair — every file restarts offsets, so an offset alone
/// names nothing. `recordOffset` is never 0: the 24-byte global header comes first.
package struct CaptureLocation: Sendable, Hashable, Codable {
    package let fileSequence: UInt32
    package let recordOffset: UInt64

    package init(fileSequence: UInt32, recordOffset: UInt64) {
        self.fileSequence = fileSequence
        self.recordOffset = recordOffset
    }
}
