/// One setting and its new value, as typed values.
package enum SettingChange: Sendable, Equatable {
    case tlsInspection(Bool)
    case plaintextPersistence(Bool)
    case capture(Bool)
    case captureDetail(CaptureDetail)
    case retentionAge(RetentionAge)
    case retentionSize(RetentionSize)
    case plaintextAge(PlaintextAge)
    case monitoringTarget(MonitoringTarget)

    /// Reads `KEY VALUE` as a person types them; anything else is refused with what is valid.
    package static func parse(key: String, value: String) throws(SettingParseError) -> SettingChange {
        guard let setting = SettingName(named: key) else { throw .unknownSetting(key) }
        guard let choice = setting.choice(named: value) else { throw .unknownValue(setting, value) }
        return choice.change
    }

    package var setting: SettingName {
        switch self {
        case .tlsInspection: .tlsInspection
        case .plaintextPersistence: .plaintextPersistence
        case .capture: .capture
        case .captureDetail: .captureDetail
        case .retentionAge: .retentionAge
        case .retentionSize: .retentionSize
        case .plaintextAge: .plaintextAge
        case .monitoringTarget: .monitoringTarget
        }
    }

    /// How the value is printed (`SettingName.choices`).
    package var spelling: String {
        if case .monitoringTarget(let target) = self { return target.settingValue }
        // Every other value a setting can hold is one of its choices (SettingNameTests checks each).
        return setting.choices.first { $0.change == self }?.spelling ?? "?"
    }

    package func apply(to settings: inout AppSettings) {
        switch self {
        case let .tlsInspection(on): settings.tlsInspectionEnabled = on
        case let .plaintextPersistence(on): settings.plaintextPersistenceEnabled = on
        case let .capture(on): settings.captureEnabled = on
        case let .captureDetail(detail): settings.captureDetail = detail
        case let .retentionAge(age): settings.retention.maxAge = age
        case let .retentionSize(size): settings.retention.maxCaptureSize = size
        case let .plaintextAge(age): settings.retention.maxPlaintextAge = age
        case let .monitoringTarget(target): settings.monitoringTarget = target
        }
    }

    /// Whether this build does what the value asks. Every value is carried out: inspection in the
    /// runs started with `run --inspect` (there the setting pauses and resumes it; a run without
    /// the option decrypts nothing whatever it says), decrypted content kept by those runs while
    /// its switch is on, and every retention limit (`RetentionPass`, `PlaintextRetention`).
    package var support: SettingSupport {
        switch self {
        case .tlsInspection, .plaintextPersistence, .capture, .captureDetail, .retentionAge, .retentionSize, .plaintextAge,
             .monitoringTarget:
            .enforced
        }
    }

    /// The command that carries the change into a running tunnel at once: the switches that stop
    /// or resume a live session's capture, inspection and keeping, and the capture's detail (a new
    /// file with the new snap length); nil for retention's limits, which its own passes read.
    package var liveCommand: ControlCommand? {
        switch self {
        case let .tlsInspection(on): .setTLSInspectionEnabled(on)
        case let .plaintextPersistence(on): .setPlaintextPersistenceEnabled(on)
        case let .capture(on): .setCaptureEnabled(on)
        case let .captureDetail(detail): .setCaptureDetail(detail)
        // A running service keeps the target it was started for; the next Start takes the new one.
        case .retentionAge, .retentionSize, .plaintextAge, .monitoringTarget: nil
        }
    }
}
