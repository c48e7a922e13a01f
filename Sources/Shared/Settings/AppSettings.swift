/// What the person decided: the one durable cross-process contract. The `tunnelvision` command
/// writes it when a setting is changed, and the tunnel reads it once when a session starts, so a
/// choice survives the tunnel stopping and the machine restarting. Stored as one JSON blob
/// (`settings.json`), so a reader never sees half a write.
package struct AppSettings: Codable, Sendable, Equatable {
    /// Terminate TLS to inspect it. Off by default: inspection is opt-in, with the person's own CA.
    package var tlsInspectionEnabled: Bool
    /// Keep decrypted content on disk. Off by default: it is the most private thing there is.
    package var plaintextPersistenceEnabled: Bool
    /// Write the packets to `.pcap` files.
    package var captureEnabled: Bool
    /// How much of each packet the capture keeps.
    package var captureDetail: CaptureDetail
    /// How long and how much is kept.
    package var retention: RetentionSettings
    /// What the Dashboard's Start monitors: the host (the namespace the service runs in) unless
    /// the person picks another, so Start works at once.
    package var monitoringTarget: MonitoringTarget

    package init(tlsInspectionEnabled: Bool = false, plaintextPersistenceEnabled: Bool = false,
                captureEnabled: Bool = true, captureDetail: CaptureDetail = .fullPayload,
                retention: RetentionSettings = .default, monitoringTarget: MonitoringTarget = .host) {
        self.tlsInspectionEnabled = tlsInspectionEnabled
        self.plaintextPersistenceEnabled = plaintextPersistenceEnabled
        self.captureEnabled = captureEnabled
        self.captureDetail = captureDetail
        self.retention = retention
        self.monitoringTarget = monitoringTarget
    }

    /// The factory settings: what a fresh install, and a tunnel that cannot read the file, uses.
    package static let `default` = AppSettings()

    enum CodingKeys: String, CodingKey {
        case tlsInspectionEnabled, plaintextPersistenceEnabled, captureEnabled, captureDetail, retention, monitoringTarget
    }

    /// Strict (`SettingsDecoding`): a missing field takes its factory value, but a field of the
    /// wrong type, null, an unknown value or a key this build does not know makes the whole file
    /// unreadable, so it is reported and left untouched instead of silently becoming choices the
    /// person never made.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.settingsContainer(keyedBy: CodingKeys.self)
        let factory = AppSettings.default
        tlsInspectionEnabled = try container.settingValue(forKey: .tlsInspectionEnabled) ?? factory.tlsInspectionEnabled
        plaintextPersistenceEnabled = try container.settingValue(forKey: .plaintextPersistenceEnabled)
            ?? factory.plaintextPersistenceEnabled
        captureEnabled = try container.settingValue(forKey: .captureEnabled) ?? factory.captureEnabled
        captureDetail = try container.settingValue(forKey: .captureDetail) ?? factory.captureDetail
        retention = try container.settingValue(forKey: .retention) ?? factory.retention
        monitoringTarget = try container.settingValue(forKey: .monitoringTarget) ?? factory.monitoringTarget
    }
}
