import Foundation

/// The settings as a person names them — on the command line, and in the web app — in the order
/// they are listed: each one's values and their spellings, its help line, and what this build does
/// with it. The one place this vocabulary is written down.
package enum SettingName: String, CaseIterable, Sendable {
    case tlsInspection = "tls-inspection"
    case plaintextPersistence = "plaintext-persistence"
    case capture
    case captureDetail = "capture-detail"
    case retentionAge = "retention-age"
    case retentionSize = "retention-size"
    case plaintextAge = "plaintext-age"
    case monitoringTarget = "monitoring-target"

    /// The command that sets it to `value`: what a screen says when the setting is why nothing shows.
    package func command(_ value: String) -> String { "tunnelvision settings set \(rawValue) \(value)" }

    /// What it decides, in one line of help.
    package var summary: String {
        switch self {
        case .tlsInspection: "decrypt TLS to inspect it"
        case .plaintextPersistence: "keep decrypted content on disk"
        case .capture: "write the packets to .pcap files"
        case .captureDetail: "keep the first 128 bytes of each packet, or all of it"
        case .retentionAge: "how long history and captures are kept"
        case .retentionSize: "how much disk the captures may take"
        case .plaintextAge:
            "how long decrypted content is kept (never unlimited; a fixed 512 MiB ceiling may delete it sooner)"
        case .monitoringTarget:
            "what the Dashboard's Start monitors: the host, a network namespace, a process's namespace, or an interface (passively)"
        }
    }

    /// The values it takes, as they are listed and printed, each with its other spellings (which
    /// `choice(named:)` compares as `normalized` leaves them).
    package var choices: [SettingChoice] {
        func toggle(_ change: (Bool) -> SettingChange) -> [SettingChoice] {
            [SettingChoice("on", ["true", "yes", "1", "enabled", "enable"], change(true)),
             SettingChoice("off", ["false", "no", "0", "disabled", "disable"], change(false))]
        }
        return switch self {
        case .tlsInspection: toggle(SettingChange.tlsInspection)
        case .plaintextPersistence: toggle(SettingChange.plaintextPersistence)
        case .capture: toggle(SettingChange.capture)
        case .captureDetail:
            [SettingChoice("metadata", ["metadataonly", "headers", "headersonly"], .captureDetail(.metadataOnly)),
             SettingChoice("full", ["fullpayload", "payload"], .captureDetail(.fullPayload))]
        case .retentionAge:
            [SettingChoice("1d", ["oneday", "1day", "day", "24h"], .retentionAge(.oneDay)),
             SettingChoice("1w", ["oneweek", "1week", "week", "7d"], .retentionAge(.oneWeek)),
             SettingChoice("30d", ["onemonth", "1month", "month"], .retentionAge(.oneMonth)),
             SettingChoice("unlimited", ["none", "never", "forever", "nolimit"], .retentionAge(.unlimited))]
        case .retentionSize:
            [SettingChoice("256MiB", ["megabytes256", "256mb", "256m"], .retentionSize(.megabytes256)),
             SettingChoice("1GiB", ["gigabytes1", "1gb", "1g", "1024mib", "1024mb"], .retentionSize(.gigabytes1)),
             SettingChoice("4GiB", ["gigabytes4", "4gb", "4g"], .retentionSize(.gigabytes4)),
             SettingChoice("unlimited", ["none", "nolimit"], .retentionSize(.unlimited))]
        case .plaintextAge:
            [SettingChoice("1h", ["onehour", "1hour", "hour", "60m"], .plaintextAge(.oneHour)),
             SettingChoice("1d", ["oneday", "1day", "day", "24h"], .plaintextAge(.oneDay)),
             SettingChoice("1w", ["oneweek", "1week", "week", "7d"], .plaintextAge(.oneWeek))]
        // Named, not listed: the one fixed value; the others are read by `choice(named:)`.
        case .monitoringTarget:
            [SettingChoice(MonitoringTarget.host.settingValue, [], .monitoringTarget(.host))]
        }
    }

    /// The values it takes, as help (" | ") and a refusal (", ") list them.
    package func valueForms(separator: String) -> String {
        (self == .monitoringTarget ? MonitoringTarget.settingForms : choices.map(\.spelling)).joined(separator: separator)
    }

    /// The setting a person typed: its name, ignoring case.
    package init?(named text: String) {
        self.init(rawValue: text.lowercased())
    }

    /// The choice `text` names, ignoring case, spaces, "-" and "_".
    package func choice(named text: String) -> SettingChoice? {
        if self == .monitoringTarget {
            return MonitoringTarget(settingValue: text.trimmingCharacters(in: .whitespaces))
                .map { SettingChoice($0.settingValue, [], .monitoringTarget($0)) }
        }
        let word = Self.normalized(text)
        return choices.first { Self.normalized($0.spelling) == word || $0.aliases.contains(word) }
    }

    /// Its value in `settings`, as a change that would set it.
    package func current(in settings: AppSettings) -> SettingChange {
        switch self {
        case .tlsInspection: .tlsInspection(settings.tlsInspectionEnabled)
        case .plaintextPersistence: .plaintextPersistence(settings.plaintextPersistenceEnabled)
        case .capture: .capture(settings.captureEnabled)
        case .captureDetail: .captureDetail(settings.captureDetail)
        case .retentionAge: .retentionAge(settings.retention.maxAge)
        case .retentionSize: .retentionSize(settings.retention.maxCaptureSize)
        case .plaintextAge: .plaintextAge(settings.retention.maxPlaintextAge)
        case .monitoringTarget: .monitoringTarget(settings.monitoringTarget)
        }
    }

    /// Its value in `settings`, spelled as in `choices`.
    package func value(in settings: AppSettings) -> String {
        current(in: settings).spelling
    }

    /// The values in `settings` this build does not honour as they ask, in listing order, each
    /// with what the build does instead.
    package static func unhonoured(in settings: AppSettings) -> [(value: SettingChange, support: SettingSupport)] {
        allCases.map { $0.current(in: settings) }.compactMap { value in
            value.support == .enforced ? nil : (value, value.support)
        }
    }

    static func normalized(_ text: String) -> String {
        String(text.lowercased().filter { !" -_".contains($0) })
    }
}

/// One value of a setting: how it is printed, the other spellings accepted for it, and the typed
/// change it makes.
package struct SettingChoice: Sendable, Equatable {
    package let spelling: String
    /// Lower case, without spaces, "-" or "_".
    package let aliases: [String]
    package let change: SettingChange

    init(_ spelling: String, _ aliases: [String], _ change: SettingChange) {
        self.spelling = spelling
        self.aliases = aliases
        self.change = change
    }
}
