#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// What a tunnel session recorded, read back once it stopped: its own flows — every one, asked of
/// the history by the session's id, however many — and its capture files with their sizes.
package struct SessionRecording: Sendable {
    package struct CaptureFile: Sendable, Equatable {
        package let path: String
        package let bytes: UInt64
    }

    /// The session's flows, least recently seen first (the order a summary lists them).
    package let flows: [StoredFlow]
    package let captureFiles: [CaptureFile]
    package let databasePath: String
    /// Set when the flows could not be read: `flows` is then empty, not a guess.
    package let historyProblem: StoreError?

    /// What the person should know about the reading.
    package var warnings: [RunWarning] { historyProblem.map { [.historyUnreadable($0)] } ?? [] }

    /// Reads `session`'s recording; call it after `session.stop()`.
    package static func read(_ session: TunnelSession) async -> SessionRecording {
        var flows: [StoredFlow] = []
        var problem: StoreError?
        if let id = await session.store.sessionID {
            do {
                flows = try await session.store.allFlows(inSession: id)
                    .sorted { ($0.lastSeen, $0.id) < ($1.lastSeen, $1.id) }
            } catch {
                problem = error
            }
        }
        return SessionRecording(flows: flows,
                                captureFiles: (session.capture?.captureFiles() ?? []).map {
                                    CaptureFile(path: $0.path, bytes: size(of: $0.path))
                                },
                                databasePath: DataDirectoryLayout.database(in: session.dataDirectory).path,
                                historyProblem: problem)
    }

    private static func size(of path: String) -> UInt64 {
        var status = stat()
        return stat(path, &status) == 0 ? UInt64(status.st_size) : 0
    }
}
