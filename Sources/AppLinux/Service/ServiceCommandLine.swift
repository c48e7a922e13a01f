import App
import Foundation
import Shared

/// `up`'s options beyond the target's (`MonitoringTarget.options`), read by `up`'s parser and
/// written by the manager that starts the service in the background.
package enum ServiceCommandLine {
    package static let inspectOption = "--inspect"
    package static let noProgramsOption = "--no-programs"
    package static let foregroundOption = "--foreground"
    /// Said only by the manager to the service it starts: after going live, its output goes to
    /// the data directory's `service.log` instead of the pipe the manager reads.
    package static let detachedOption = "--detached"
    package static let dataDirectoryOption = "--data-dir"
    /// `up`'s own, never the service's: the web app on the data directory once the service is live.
    package static let uiOption = "--ui"
    package static let noOpenOption = "--no-open"

    /// What the manager runs to start the service for `configuration` on `dataDirectory`.
    static func serviceArguments(for configuration: TunnelConfiguration, dataDirectory: URL) -> [String] {
        ["up"] + configuration.target.options + (configuration.inspect ? [inspectOption] : [])
            + (configuration.namesPrograms ? [] : [noProgramsOption])
            + [dataDirectoryOption, dataDirectory.path, foregroundOption, detachedOption]
    }
}
