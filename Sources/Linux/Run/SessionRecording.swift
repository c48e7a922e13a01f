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
    package let captureFiles: [CaptureFile]
    package let databasePath: String
    /// The pipeline's counters at the stop: its history batches and capture writes that failed.
    package let pipelineStats: PipelineStats

    /// Reads where `session` recorded; call it after `session.stop()`.
    package static func read(_ session: TunnelSession) async -> SessionRecording {
        SessionRecording(store: session.store, sessionID: await session.store.sessionID,
                         captureFiles: (session.capture?.captureFiles() ?? []).map {
                             CaptureFile(path: $0.path, bytes: size(of: $0.path))
                         },
                         databasePath: DataDirectoryLayout.database(in: session.dataDirectory).path,
                         // The loop has stopped and the pipeline is flushed: nothing else touches it now.
                         pipelineStats: session.runtime.pipeline.stats)
    }

    private static func size(of path: String) -> UInt64 {
        var status = stat()
        return stat(path, &status) == 0 ? UInt64(status.st_size) : 0
    }
}
