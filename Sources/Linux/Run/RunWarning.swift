import Shared

/// Something a person should know about a run that still goes ahead.
package enum RunWarning: Sendable, Equatable, CustomStringConvertible {
    /// The settings could not be read: the factory settings are used.
    case settingsUnreadable(SettingsError)
    /// The stored settings ask for something this build does not do; it runs as without it.
    case settingNotHonoured(SettingChange, reason: String)
    /// No resolver of this machine can be announced to the monitored namespace.
    case noResolver
    /// A killed run had left things behind, now removed: `LeftoverSweep`'s one-line notice.
    case recovered(String)
    /// `run --inspect` found no system bundle: the command trusts the local root alone.
    case noSystemTrustBundle(String)

    package var description: String {
        switch self {
        case let .settingsUnreadable(problem): "\(problem); using the factory settings"
        case let .settingNotHonoured(value, reason):
            "the settings ask for \(value.setting.rawValue) \(value.spelling), which this build does not do (\(reason)); running without it"
        case .noResolver: "no resolver of this machine can be announced; names will not resolve inside"
        case let .recovered(notice), let .noSystemTrustBundle(notice): notice
        }
    }
}
