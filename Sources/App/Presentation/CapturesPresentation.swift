import Foundation
import Shared

/// The decisions of the captures list (screens.md, "Captures"): which file is being recorded,
/// the order, the rows, the footer, and what a deletion says — for the command and the web app alike.
package enum CapturesPresentation {
    /// The file being written: the highest sequence in the directory, and only while a tunnel is
    /// live (the writer always starts above every file there). The one way anything deduces it:
    /// being wrong would delete the file the tunnel is writing into.
    package static func recordingSequence(files: [CaptureFileInfo], isMonitoring: Bool) -> UInt32? {
        isMonitoring ? files.map(\.sequence).max() : nil
    }

    package struct Row: Sendable, Equatable {
        package let sequence: UInt32
        package let name: String
        package let byteCount: UInt64
        /// The file system's time of its last write.
        package let lastWritten: Date?
        package let isRecording: Bool
        /// Audit evidence is in it (kept by the limits, asked about before deleting it by hand);
        /// nil when that could not be read.
        package let holdsEvidence: Bool?
        /// The size as people read it ("1.5 MiB").
        package var size: String { ByteCountText.binary(byteCount) }
    }

    /// Newest first, the one being recorded and those holding audit evidence marked.
    package static func rows(files: [CaptureFileInfo], recordingSequence: UInt32?, evidence: RetentionPass.Evidence) -> [Row] {
        let held: Set<UInt32>? = if case .files(let read) = evidence { read } else { nil }
        return files.sorted { $0.sequence > $1.sequence }.map {
            Row(sequence: $0.sequence, name: $0.url.lastPathComponent, byteCount: $0.byteCount, lastWritten: $0.createdAt,
                isRecording: $0.sequence == recordingSequence, holdsEvidence: held?.contains($0.sequence))
        }
    }

    /// "3 captures, 120.5 MiB of the 1.0 GiB limit": the size said once, beside its ceiling.
    /// `sizeLimit` is nil when the limits could not be read, `.unlimited` when there is none.
    package static func footer(files: [CaptureFileInfo], sizeLimit: RetentionSize?) -> String {
        let used = ByteCountText.binary(files.reduce(0) { $0 + $1.byteCount })
        let count = files.count == 1 ? "1 capture" : "\(files.count) captures"
        guard let sizeLimit else { return "\(count), \(used)" }
        guard let cap = sizeLimit.maxBytes else { return "\(count), \(used) (no size limit)" }
        return "\(count), \(used) of the \(ByteCountText.binary(cap)) limit"
    }

    /// Why the capture `sequence` may not be deleted, or nil when it may.
    package static func deletionRefusal(sequence: UInt32, recordingSequence: UInt32?) -> String? {
        guard sequence == recordingSequence else { return nil }
        return "capture \(sequence) is being recorded by the running tunnel and cannot be deleted; "
            + "'tunnelvision captures rotate' starts a new file, then this one can go"
    }

    /// Said with every deletion: what stays and what goes.
    package static let deletionNote = "the connections stay in the history; their raw bytes are gone"

    /// What to say when there are no captures (the screen's empty state).
    package static let emptyState = "no captures yet: 'tunnelvision run -- CMD' records one (unless capture is off)"
}
