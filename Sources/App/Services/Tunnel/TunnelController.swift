import Foundation
import Shared

/// The monitoring control a screen drives (seeds/000 § Tunnel control, The controller): Start,
/// Stop and Try again, the state to render, and the control channel for Settings.
///
/// An actor where the seed has `@MainActor @Observable`: on Linux no UI thread drains the main
/// actor — the web server and the command drive it from their own tasks, and read `state` after
/// each step, as `DiagnosticsViewModel` is read.
///
/// The toggles never throw: a failure becomes `.failed` for the screen to show with a retry.
/// `send` throws, because its callers (Settings) react to a command failing.
package actor TunnelController {
    package private(set) var state: TunnelState = .off
    package private(set) var configuration: TunnelConfiguration
    /// What the manager was last set up for; a Start for anything else sets it up again first.
    private var installed: TunnelConfiguration?
    private let manager: any TunnelProviderManaging
    private var observation: Task<Void, Never>?

    package init(manager: any TunnelProviderManaging, configuration: TunnelConfiguration = .default) {
        self.manager = manager
        self.configuration = configuration
    }

    /// Loads the status; a failure shown stays until a status that is not a stop replaces it.
    package func refresh() async {
        do throws(TunnelControlError) {
            apply(try await manager.loadStatus())
        } catch {
            state = .failed(error)
        }
    }

    /// Follows the manager's status changes until `stopObservingStatus`.
    package func startObservingStatus() {
        guard observation == nil else { return }
        let updates = manager.statusUpdates()
        observation = Task { [weak self] in
            for await status in updates {
                guard let self else { return }
                await self.apply(status)
            }
        }
    }

    package func stopObservingStatus() {
        observation?.cancel()
        observation = nil
    }

    /// Sets the service up for the configuration (the priming step), without starting it.
    package func install() async {
        do throws(TunnelControlError) {
            try configuration.validate()
            try await manager.install(configuration)
            installed = configuration
            apply(try await manager.loadStatus())
        } catch {
            state = .failed(error)
        }
    }

    /// The next Start is for `configuration` (the person chose another target); a service that
    /// runs keeps the one it was started for.
    package func reconfigure(_ configuration: TunnelConfiguration) {
        self.configuration = configuration
    }

    /// Start, or Try again: sets up first when nothing is, then starts; the outcome is the state.
    package func startMonitoring() async {
        do throws(TunnelControlError) {
            try configuration.validate()
            switch try await manager.loadStatus() {
            case .connected: return apply(.connected)      // already live: nothing to start
            case .notInstalled:
                try await manager.install(configuration)
                installed = configuration
            case .disconnected, .connecting, .reasserting, .disconnecting:
                // Another target chosen since this controller's last setup: set up for it first.
                if let previous = installed, previous != configuration {
                    try await manager.install(configuration)
                    installed = configuration
                }
            }
            state = .starting       // an explicit retry is what clears a failure
            try await manager.start()
            apply(try await manager.loadStatus())
        } catch {
            state = .failed(error)
        }
    }

    package func stopMonitoring() async {
        do throws(TunnelControlError) {
            state = .stopping
            try await manager.stop()
            apply(try await manager.loadStatus())
        } catch {
            state = .failed(error)
        }
    }

    /// One command through the control channel, with the shared codec. No reply is no service:
    /// `.notRunning`, the ordinary race with a stop.
    @discardableResult
    package func send(_ command: ControlCommand) async throws(TunnelControlError) -> ControlResponse {
        guard let reply = try await manager.sendControl(ControlChannel.encode(command)) else { throw .notRunning }
        do {
            return try ControlChannel.decodeResponse(reply)
        } catch {
            throw .malformedResponse
        }
    }

    private func apply(_ status: TunnelStatus) {
        state = TunnelStatePolicy.next(from: state, status: status)
    }
}
