import Foundation
import Shared

/// What an evidence export wrote: the one zip, and what it holds.
package struct EvidenceExportResult: Sendable, Hashable {
    /// `<destination>/tunnelvision-evidence-session-<id>-<yyyyMMdd-HHmmss>.zip`.
    package let url: URL
    package let byteCount: UInt64
    package let flowCount: Int
    let findingCount: Int
    /// What `capture.pcapng` holds and lacks.
    package let capture: EvidenceCapture
}
