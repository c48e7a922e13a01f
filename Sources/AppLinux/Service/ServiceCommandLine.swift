import App
import Foundation
import Shared

/// How `up` names a target on its command line — the one place the options are spelled, read by
/// `up`'s parser and written by the manager that starts the service in the background.
package enum ServiceCommandLine {
    /// The option naming each target (`--host` takes no value).
    package static let hostOption = "--host"
    package static let namespaceOption = "--netns"
    package static let processOption = "--pid"
    package static let interfaceOption = "--interface"
    package static let inspectOption = "--inspect"
    package static let foregroundOption = "--foreground"
    /// Said only by the manager to the service it starts: after going live, its output goes to
    /// the data directory's `service.log` instead of the pipe the manager reads.
    package static let detachedOption = "--detached"
    package static let dataDirectoryOption = "--data-dir"

    /// The options naming `target`.
    package static func arguments(for target: MonitoringTarget) -> [String] {
        switch target {
        case .host: [hostOption]
        case let .namespace(name): [namespaceOption, name]
        case let .process(pid): [processOption, "\(pid)"]
        case let .interface(name): [interfaceOption, name]
        }
    }

    /// What the manager runs to start the service for `configuration` on `dataDirectory`.
    package static func serviceArguments(for configuration: TunnelConfiguration, dataDirectory: URL) -> [String] {
        ["up"] + arguments(for: configuration.target) + (configuration.inspect ? [inspectOption] : [])
            + [dataDirectoryOption, dataDirectory.path, foregroundOption, detachedOption]
    }
}
