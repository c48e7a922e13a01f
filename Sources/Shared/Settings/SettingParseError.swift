/// Why `KEY VALUE` names no setting change. The caller shows it to the person, who retypes; its
/// description lists what is valid.
package enum SettingParseError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownSetting(String)
    case unknownValue(SettingName, String)

    package var description: String {
        switch self {
        case let .unknownSetting(key):
            "no setting \(key); the settings are \(SettingName.allCases.map(\.rawValue).joined(separator: ", "))"
        case let .unknownValue(setting, value):
            "\(setting.rawValue) cannot be \(value); it takes \(setting.valueForms(separator: ", "))"
        }
    }
}
