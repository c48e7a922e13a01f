/// How much of the disk TunnelVision is using: the captures (the file being written included) and
/// the history. A history that will not open still leaves the capture figures: its own are nil
/// with the reason, never zeros.
public struct StorageUsage: Sendable, Equatable {
    public let captureBytes: UInt64
    public let captureFileCount: Int
    /// The database and its WAL sidecars; nil when the history could not be opened.
    public let historyBytes: UInt64?
    /// Connections in the history; nil when it could not be opened.
    public let historyFlowCount: Int?
    /// Why the history's figures are missing.
    public let historyProblem: String?

    public init(captureBytes: UInt64, captureFileCount: Int, historyBytes: UInt64?, historyFlowCount: Int?,
                historyProblem: String? = nil) {
        self.captureBytes = captureBytes
        self.captureFileCount = captureFileCount
        self.historyBytes = historyBytes
        self.historyFlowCount = historyFlowCount
        self.historyProblem = historyProblem
    }

    /// Captures plus history; only the captures when the history's size is unknown (`isComplete`).
    public var totalBytes: UInt64 { captureBytes + (historyBytes ?? 0) }
    /// Whether `totalBytes` counts the history too.
    public var isComplete: Bool { historyBytes != nil }
}
