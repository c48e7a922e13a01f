import Foundation
import Testing
@testable import Shared

@Suite struct PlaintextSettingTests {
    @Test("keeping decrypted content is off by default even with inspection on; its age defaults to a day; the ceiling is 512 MiB")
    func defaults() throws {
        let settings = try JSONDecoder().decode(AppSettings.self, from: Data(#"{"tlsInspectionEnabled": true}"#.utf8))
        #expect(settings.tlsInspectionEnabled)
        #expect(!settings.plaintextPersistenceEnabled)
        #expect(settings.retention.maxPlaintextAge == .oneDay)
        #expect(RetentionSettings.plaintextByteCeiling == 536_870_912)
    }

    @Test("decoding an unlimited decrypted-content age is an error that says so")
    func noUnlimited() {
        #expect {
            try JSONDecoder().decode(RetentionSettings.self, from: Data(#"{"maxPlaintextAge": "unlimited"}"#.utf8))
        } throws: { error in
            "\(error)".contains("never kept without a limit")
        }
        #expect(throws: SettingParseError.self) { try SettingChange.parse(key: "plaintext-age", value: "unlimited") }
    }

    @Test("plaintext-age takes 1h, 1d and 1w, shorter than any capture age")
    func values() throws {
        #expect(try SettingChange.parse(key: "plaintext-age", value: "1h") == .plaintextAge(.oneHour))
        #expect(try SettingChange.parse(key: "plaintext-age", value: "1w") == .plaintextAge(.oneWeek))
        var settings = AppSettings()
        SettingChange.plaintextAge(.oneHour).apply(to: &settings)
        #expect(SettingName.plaintextAge.value(in: settings) == "1h")
        #expect(SettingName.plaintextAge.summary.contains("512 MiB"))
        let back = try JSONDecoder().decode(AppSettings.self, from: try JSONEncoder().encode(settings))
        #expect(back.retention.maxPlaintextAge == .oneHour)
    }
}
