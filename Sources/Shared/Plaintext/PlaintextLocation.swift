/// Where one decrypted chunk landed: the file's sequence (its identity, `PlaintextFileName`) and
/// the offset of its record header, never 0 (the global header is there).
package struct PlaintextLocation: Sendable, Hashable, Codable {
    package let fileSequence: UInt32
    package let recordOffset: UInt64

    package init(fileSequence: UInt32, recordOffset: UInt64) {
        self.fileSequence = fileSequence
        self.recordOffset = recordOffset
    }
}
