import Foundation
import Shared

/// What an evidence export wrote: the one zip, and what it holds.
public struct EvidenceExportResult: Sendable, Hashable {
    /// `<destination>/tunnelvision-evidence-session-<id>-<yyyyMMdd-HHmmss>.zip`.
    public let url: URL
    public let byteCount: UInt64
    public let flowCount: Int
    public let findingCount: Int
    /// What `capture.pcapng` holds and lacks.
    public let capture: EvidenceCapture
}
