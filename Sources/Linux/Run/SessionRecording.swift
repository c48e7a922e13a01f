#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// Where a tunnel session's recording is, once it stopped: its history session (whose flows the
/// app side asks the store for — `App/Services/SessionHistory`), its capture files with their
/// sizes, the history's path, and what the pipeline failed to write while it ran — without which
/// a summary would show a history that lost batches as if it were whole.
package struct SessionRecording: Sendable {
    package struct CaptureFile: Sendable, Equatable {
        package let path: String
        package let bytes: UInt64
    }

    /// The history the session wrote into, still open for reading.
    package let store: FlowStore
    /// The session's id in it; nil when nothing was written (no packet crossed the tunnel).
    package let sessionID: Int64?
    /// The session's capture files still there, with their sizes.
    package let captureFiles: [CaptureFile]
    /// The session's capture files gone by the stop (retention deleted them as the captures
    /// grew past the size limit, or someone did by hand): never listed as if they were there.
    package let captureFilesGone: [String]
    package let databasePath: String
    /// The pipeline's counters at the stop: its history batches and capture writes that failed.
    package let pipelineStats: PipelineStats
    /// What the device and the sockets refused, and what the kernel counted on the device, at the stop.
    package let shellStats: ShellStats
    /// Capture or history stopping on a failure (a full disk) while the tunnel went on.
    package let recordingStops: [RecordingStop]
    /// What the session's retention did (history rows pruned for age among it), and the age it
    /// kept the history to; nil without retention.
    package let retention: RetentionStats?
    package let retentionAge: RetentionAge?

    /// Reads where `session` recorded; call it after `session.stop()`, before its device is closed.
    package static func read(_ session: TunnelSession) async -> SessionRecording {
        let written = (session.capture?.captureFiles() ?? []).map { ($0.path, size(of: $0.path)) }
        return SessionRecording(store: session.store, sessionID: await session.store.sessionID,
                                captureFiles: written.compactMap { path, bytes in bytes.map { CaptureFile(path: path, bytes: $0) } },
                                captureFilesGone: written.filter { $0.1 == nil }.map(\.0),
                                databasePath: DataDirectoryLayout.database(in: session.dataDirectory).path,
                                // The loop has stopped and the pipeline is flushed: nothing else touches it now.
                                pipelineStats: session.runtime.pipeline.stats,
                                shellStats: session.runtime.shellStats,
                                recordingStops: session.recordingStops.all, retention: session.retention?.stats,
                                retentionAge: session.retention?.settings.maxAge)
    }

    /// The file's size; nil when it is not there.
    private static func size(of path: String) -> UInt64? {
        var status = stat()
        return stat(path, &status) == 0 ? UInt64(status.st_size) : nil
    }
}
