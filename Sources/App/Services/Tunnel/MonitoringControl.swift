import Foundation
import Shared

/// The monitoring control as the web app holds it: one `TunnelController` for the server's life
/// (so a failure stays shown until the person tries again, as the seed asks), over the shell's
/// manager, and the service's record read beside it for what the screen says.
package actor MonitoringControl {
    package typealias Report = @Sendable () throws(TunnelControlError) -> ServiceReport
    /// Whether a `run` records into the directory (its control socket answers).
    package typealias RunRecording = @Sendable () -> Bool
    /// What the person chose for Start to monitor (the settings' `monitoringTarget`), asked at
    /// each step; nil when it cannot be read — Start then keeps what it had.
    package typealias ChosenTarget = @Sendable () -> MonitoringTarget?

    private let controller: TunnelController
    private let report: Report
    private let runRecording: RunRecording
    private let dataDirectory: String
    private let chosenTarget: ChosenTarget

    package init(manager: any TunnelProviderManaging, configuration: TunnelConfiguration = .default, dataDirectory: String,
                report: @escaping Report, runRecording: @escaping RunRecording, chosenTarget: @escaping ChosenTarget = { nil }) {
        controller = TunnelController(manager: manager, configuration: configuration)
        self.report = report
        self.runRecording = runRecording
        self.dataDirectory = dataDirectory
        self.chosenTarget = chosenTarget
    }

    package func perform(_ action: MonitoringAction) async -> MonitoringScreen {
        if let target = chosenTarget(), await target != controller.configuration.target {
            await controller.reconfigure(TunnelConfiguration(target: target))
        }
        switch action {
        case .show: await controller.refresh()
        case .start: await controller.startMonitoring()
        case .stop: await controller.stopMonitoring()
        }
        return await screen()
    }

    private func screen() async -> MonitoringScreen {
        let state = await controller.state
        let configuration = await controller.configuration
        do throws(TunnelControlError) {
            let report = try report()
            let recording = report.runningPID == nil && runRecording()
            return MonitoringScreen(state: state, target: configuration.target,
                                    status: ServiceStatusScreen(report: report, dataDirectory: dataDirectory, runRecording: recording))
        } catch {
            // The record could not be read (no rights): the state says so; nothing is invented.
            return MonitoringScreen(state: state == .live ? .failed(error) : state, target: configuration.target, status: nil)
        }
    }
}
