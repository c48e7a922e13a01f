import Foundation
import Shared

/// Which of the dashboard's states a snapshot is in: decided here once, drawn by every face.
package enum LiveDashboardState: Sendable, Equatable {
    /// No ring in the data directory: no tunnel has run there (or it was removed).
    case noTunnel
    /// A ring exists but cannot be read; the error says what to do.
    case unreadable(IPCError)
    /// A tunnel session is feeding the ring.
    case live(session: UInt64)
    /// The ring of an earlier session, closed by its tunnel: waiting for a new one.
    case sessionEnded(session: UInt64)

    package init(_ snapshot: LiveFeedSnapshot) {
        guard snapshot.isAttached else {
            if let error = snapshot.lastAttachError, !Self.isMissingRing(error) {
                self = .unreadable(error)
            } else {
                self = .noTunnel
            }
            return
        }
        let session = snapshot.generation ?? 0
        self = snapshot.ringState == .closed ? .sessionEnded(session: session) : .live(session: session)
    }

    package var isLive: Bool { if case .live = self { true } else { false } }

    /// The headline, for a data directory shown as `directory`.
    package func headline(directory: String) -> String {
        switch self {
        case .noTunnel:
            "no tunnel on \(directory) — waiting for one (start it with: sudo tunnelvision run -- COMMAND)"
        case .unreadable(let error):
            "cannot read the live feed: \(error) — waiting"
        case .live(let session):
            "live — session \(session) on \(directory)"
        case .sessionEnded(let session):
            "session \(session) has ended — showing its last minute; a new session is picked up when it starts"
        }
    }

    private static func isMissingRing(_ error: IPCError) -> Bool {
        if case .openFailed(_, let code) = error, code == ENOENT { return true }
        return false
    }
}
