import Foundation
import Shared

/// The diagnostics screen's state: the last counters the running tunnel gave, asked through an
/// injected `send` (the control channel, or a script in the tests). Three rules, all because the
/// counters are per session:
///   1. nothing is asked when no tunnel is live — the only true thing then is that there is no
///      session to diagnose, not the channel's failure;
///   2. a failed query keeps the last counters and says why there are no newer ones, in the
///      system's words;
///   3. the tunnel stopping clears them: they belonged to that session.
package actor DiagnosticsViewModel {
    package typealias Send = @Sendable (ControlCommand) async throws -> ControlResponse

    package private(set) var stats: TunnelStats?
    /// Why the last query brought no counters; nil after one that did.
    package private(set) var failure: String?
    private(set) var isRefreshing = false
    package private(set) var isMonitoring: Bool
    private let send: Send

    package init(isMonitoring: Bool = false, send: @escaping Send) {
        self.isMonitoring = isMonitoring
        self.send = send
    }

    /// What the screen shows now.
    package var screen: DiagnosticsScreen {
        DiagnosticsPresentation.screen(stats: stats, isMonitoring: isMonitoring, failure: failure)
    }

    /// The tunnel started or stopped; stopping forgets the session's counters (rule 3).
    package func tunnelStateDidChange(isMonitoring live: Bool) {
        isMonitoring = live
        if !live {
            stats = nil
            failure = nil
        }
    }

    /// Asks for the counters, unless no tunnel is live (rule 1).
    package func refresh() async {
        guard isMonitoring, !isRefreshing else { return }
        isRefreshing = true
        defer { isRefreshing = false }
        let response: ControlResponse
        do {
            response = try await send(.stats)
        } catch {
            failure = Self.reason(error)
            return
        }
        switch response {
        case let .stats(stats):
            self.stats = stats
            failure = nil
        case .notRunning:
            // The tunnel stopped between two questions: the ordinary race with a stop.
            tunnelStateDidChange(isMonitoring: false)
        case let .failed(message):
            failure = message
        case .ok:
            failure = "the tunnel answered without its counters; ask again"
        }
    }

    /// The error as the system words it — never the name of an enum case.
    static func reason(_ error: any Error) -> String {
        if let described = (error as Any) as? any CustomStringConvertible { return described.description }
        return error.localizedDescription
    }
}
