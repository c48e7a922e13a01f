import Shared

extension TunnelSession.Options {
    /// A monitoring service's session for `target`, as the data directory's settings ask: capture
    /// on or off and its detail, the retention limits (none when the settings could not be read:
    /// limits are not guessed), and the history's session named by `up`'s own options.
    package static func service(for target: MonitoringTarget, settings reading: SettingsReading) -> Self {
        var options = Self()
        options.captureEnabled = reading.settings.captureEnabled
        options.captureDetail = reading.settings.captureDetail
        options.retention = reading.problem == nil ? reading.settings.retention : nil
        options.origin = (["up"] + target.options).joined(separator: " ")
        return options
    }
}
