/// How much of the disk TunnelVision is using: the captures (the file being written included), the
/// history and the decrypted content (`plaintext/*.tvpt`). A history or a decrypted-content folder
/// that cannot be read leaves the other figures: its own are nil with the reason, never zeros.
package struct StorageUsage: Sendable, Equatable {
    package let captureBytes: UInt64
    package let captureFileCount: Int
    /// The database and its WAL sidecars; nil when the history could not be opened.
    package let historyBytes: UInt64?
    /// Connections in the history; nil when it could not be opened.
    package let historyFlowCount: Int?
    /// Of those, the connections that are audit evidence (`FlowStore.auditFlowCount()`): what
    /// *Delete everything* would take from the person's audits, said before it does; nil when the
    /// history could not be opened.
    package let auditFlowCount: Int?
    /// Why the history's figures are missing.
    package let historyProblem: String?
    /// The `.tvpt` files' bytes (the one being written included); 0 with no folder yet, nil when
    /// the folder could not be listed.
    package let plaintextBytes: UInt64?
    package let plaintextFileCount: Int?
    /// Why the decrypted content's figures are missing.
    package let plaintextProblem: String?

    package init(captureBytes: UInt64, captureFileCount: Int, historyBytes: UInt64?, historyFlowCount: Int?,
                auditFlowCount: Int?, historyProblem: String? = nil, plaintextBytes: UInt64? = 0, plaintextFileCount: Int? = 0,
                plaintextProblem: String? = nil) {
        self.captureBytes = captureBytes
        self.captureFileCount = captureFileCount
        self.historyBytes = historyBytes
        self.historyFlowCount = historyFlowCount
        self.auditFlowCount = auditFlowCount
        self.historyProblem = historyProblem
        self.plaintextBytes = plaintextBytes
        self.plaintextFileCount = plaintextFileCount
        self.plaintextProblem = plaintextProblem
    }

    /// Captures, history and decrypted content; only what could be measured when a part is
    /// unknown (`isComplete`).
    package var totalBytes: UInt64 { captureBytes + (historyBytes ?? 0) + (plaintextBytes ?? 0) }
    /// Whether `totalBytes` counts every part.
    package var isComplete: Bool { historyBytes != nil && plaintextBytes != nil }
}
