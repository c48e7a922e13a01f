import Testing
@testable import Shared

/// The settings' vocabulary: names, values and their spellings, and what this build does with each.
@Suite struct SettingNameTests {
    /// Every value each setting can hold.
    static let everyValue: [SettingChange] = [true, false].flatMap { on in
        [SettingChange.tlsInspection(on), .plaintextPersistence(on), .capture(on)]
    } + CaptureDetail.allCases.map(SettingChange.captureDetail) + RetentionAge.allCases.map(SettingChange.retentionAge)
        + RetentionSize.allCases.map(SettingChange.retentionSize) + PlaintextAge.allCases.map(SettingChange.plaintextAge)
        + [.host, .namespace("lab-1"), .process(4242), .interface("eth0")].map(SettingChange.monitoringTarget)

    @Test("every value a setting can hold is one of its choices, printed as it is parsed")
    func everyValueHasASpelling() throws {
        for value in Self.everyValue {
            var settings = AppSettings.default
            value.apply(to: &settings)
            #expect(value.setting.current(in: settings) == value)
            let spelling = value.setting.value(in: settings)
            #expect(spelling == value.spelling && spelling != "?", "\(value)")
            #expect(try SettingChange.parse(key: value.setting.rawValue, value: spelling) == value)
        }
        // Every fixed value is listed; a target is read from its form (only the host is fixed).
        #expect(SettingName.allCases.map { $0.choices.count }.reduce(0, +) == Self.everyValue.count - 3)
    }

    @Test("every spelling and alias names one choice of its setting, whatever the case, spaces, dashes or underscores")
    func spellingsAreUnambiguous() throws {
        for setting in SettingName.allCases {
            var seen: Set<String> = []
            for choice in setting.choices {
                for word in [choice.spelling] + choice.aliases {
                    #expect(seen.insert(SettingName.normalized(word)).inserted, "\(setting.rawValue): \(word) twice")
                    #expect(setting.choice(named: word) == choice)
                    #expect(setting.choice(named: "  " + word.uppercased()) == choice)
                }
                #expect(choice.aliases.allSatisfy { $0 == SettingName.normalized($0) }, "\(choice.aliases)")
            }
        }
        #expect(try SettingChange.parse(key: "Retention-Age", value: "1 week") == .retentionAge(.oneWeek))
        #expect(try SettingChange.parse(key: "capture-detail", value: "full_payload") == .captureDetail(.fullPayload))
    }

    @Test("a name or value that is not in the vocabulary is refused with the valid ones")
    func unknownWordsAreRefused() {
        #expect(throws: SettingParseError.unknownSetting("colour")) { try SettingChange.parse(key: "colour", value: "blue") }
        #expect(throws: SettingParseError.unknownValue(.retentionSize, "2GiB")) {
            try SettingChange.parse(key: "retention-size", value: "2GiB")
        }
        #expect(SettingParseError.unknownValue(.retentionSize, "2GiB").description
                == "retention-size cannot be 2GiB; it takes 256MiB, 1GiB, 4GiB, unlimited")
        #expect(SettingParseError.unknownSetting("colour").description
                == "no setting colour; the settings are tls-inspection, plaintext-persistence, capture, capture-detail, retention-age, retention-size, plaintext-age, monitoring-target")
    }

    @Test("a monitoring target is written host, netns:NAME, pid:PID or interface:IF; a form that names none, or a target that cannot be, is refused with the forms")
    func monitoringTargetForms() throws {
        #expect(try SettingChange.parse(key: "monitoring-target", value: "NETNS:lab-1") == .monitoringTarget(.namespace("lab-1")))
        #expect(try SettingChange.parse(key: "monitoring-target", value: " pid:4242 ") == .monitoringTarget(.process(4242)))
        #expect(try SettingChange.parse(key: "monitoring-target", value: "interface:any") == .monitoringTarget(.interface("any")))
        for refused in ["", "netns", "netns:", "netns:a/b", "pid:0", "pid:x", "host:x", "interface:has space", "bridge:br0"] {
            #expect(throws: SettingParseError.unknownValue(.monitoringTarget, refused)) {
                try SettingChange.parse(key: "monitoring-target", value: refused)
            }
        }
        #expect(SettingParseError.unknownValue(.monitoringTarget, "bridge:br0").description
                == "monitoring-target cannot be bridge:br0; it takes host, netns:NAME, pid:PID, interface:IF")
        #expect(SettingName.monitoringTarget.value(in: .default) == "host")
    }

    @Test("every value is carried out: decrypting (in run --inspect), keeping plaintext, every retention limit")
    func whatThisBuildHonours() {
        for value in Self.everyValue {
            #expect(value.support == .enforced, "\(value)")
        }
    }

    @Test("the factory settings and the opt-ins are all honoured: nothing is reported")
    func unhonouredValues() {
        #expect(SettingName.unhonoured(in: .default).isEmpty)
        let opted = AppSettings(tlsInspectionEnabled: true, plaintextPersistenceEnabled: true,
                                retention: RetentionSettings(maxAge: .unlimited, maxCaptureSize: .unlimited))
        #expect(SettingName.unhonoured(in: opted).isEmpty)
    }
}
