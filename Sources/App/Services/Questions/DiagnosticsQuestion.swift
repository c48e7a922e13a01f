import Foundation
import Shared

/// The diagnostics question (`tunnelvision diagnostics`, `GET /api/diagnostics`): the running
/// tunnel's counters read into the screen's headline, notice and sections.
package struct DiagnosticsQuestion: Sendable, Equatable {
    package var dataDirectory: String?

    package init(dataDirectory: String? = nil) {
        self.dataDirectory = dataDirectory
    }

    package var directory: URL { HistoryAccess.dataDirectory(override: dataDirectory) }

    /// The screen; with no tunnel running it says there is nothing to diagnose
    /// (`isMonitoring` false). Fails only when the tunnel could not be asked.
    package func answer(tunnel: TunnelControl) async throws(QuestionFailure) -> DiagnosticsScreen {
        let directory = directory
        let model = DiagnosticsViewModel(isMonitoring: true) { command in
            do throws(TunnelControl.Failure) {
                return try tunnel.send(command, in: directory)
            } catch .notRunning {
                // Nothing answers there: no session, the same answer a stopping tunnel gives.
                return .notRunning
            }
        }
        await model.refresh()
        let (failure, stats) = await (model.failure, model.stats)
        if let failure, stats == nil {
            throw QuestionFailure(.failed, "cannot ask the tunnel on \(directory.path) for its counters: \(failure)")
        }
        return await model.screen
    }
}
