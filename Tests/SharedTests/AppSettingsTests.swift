import Foundation
import Testing
@testable import Shared

@Suite struct AppSettingsTests {
    static func decode(_ json: String) throws -> AppSettings {
        try JSONDecoder().decode(AppSettings.self, from: Data(json.utf8))
    }

    static let everyChoiceChanged = AppSettings(tlsInspectionEnabled: true, plaintextPersistenceEnabled: true,
                                                captureEnabled: false, captureDetail: .metadataOnly,
                                                retention: RetentionSettings(maxAge: .oneMonth, maxCaptureSize: .gigabytes4))

    @Test func theFactorySettingsAreTheSpecifiedOnes() {
        let settings = AppSettings.default
        #expect(!settings.tlsInspectionEnabled && !settings.plaintextPersistenceEnabled)
        #expect(settings.captureEnabled && settings.captureDetail == .fullPayload)
        #expect(settings.retention == RetentionSettings(maxAge: .oneWeek, maxCaptureSize: .gigabytes1))
        #expect(AppSettings() == .default && RetentionSettings() == .default)
    }

    @Test func retentionChoicesMeanWhatTheySay() {
        #expect(RetentionAge.allCases.map(\.maxAge) == [86_400, 604_800, 2_592_000, nil])
        #expect(RetentionSize.allCases.map(\.maxBytes) == [268_435_456, 1_073_741_824, 4_294_967_296, nil])
        #expect(RetentionAge.allCases.map(\.rawValue) == ["oneDay", "oneWeek", "oneMonth", "unlimited"])
        #expect(RetentionSize.allCases.map(\.rawValue) == ["megabytes256", "gigabytes1", "gigabytes4", "unlimited"])
        #expect(!RetentionSettings.default.isUnlimited)
        #expect(!RetentionSettings(maxAge: .unlimited, maxCaptureSize: .gigabytes4).isUnlimited)
        #expect(RetentionSettings(maxAge: .unlimited, maxCaptureSize: .unlimited).isUnlimited)
    }

    @Test func everyChoiceRoundTrips() throws {
        let data = try JSONEncoder().encode(Self.everyChoiceChanged)
        #expect(try JSONDecoder().decode(AppSettings.self, from: data) == Self.everyChoiceChanged)
    }

    @Test func aMissingFieldFallsBackAndTheOthersAreKept() throws {
        let settings = try Self.decode(#"{"tlsInspectionEnabled":true,"captureDetail":"metadataOnly"}"#)
        #expect(settings == AppSettings(tlsInspectionEnabled: true, captureDetail: .metadataOnly))
        #expect(try Self.decode("{}") == .default)
    }

    @Test("a key this build does not know makes the file unreadable, not ignored (the next save would drop it)")
    func anUnknownFieldIsRefused() {
        for json in [#"{"captureEnabled":false,"futureKey":1}"#, #"{"futureKey":1}"#,
                     #"{"retention":{"maxAge":"oneDay","maxPlaintextSize":"gigabytes1"}}"#] {
            #expect(throws: DecodingError.self, "\(json) decoded") { try Self.decode(json) }
        }
    }

    @Test("a field of the wrong type, null or an unknown value makes the file unreadable instead of falling back")
    func aWrongValueIsRefused() {
        let wrong = [#"{"captureEnabled":"yes"}"#, #"{"captureDetail":7}"#, #"{"captureEnabled":null}"#,
                     #"{"tlsInspectionEnabled":1}"#, #"{"captureDetail":"everything"}"#, #"{"retention":"forever"}"#,
                     #"{"retention":{"maxAge":"oneYear"}}"#, #"{"retention":{"maxCaptureSize":["big"]}}"#]
        for json in wrong {
            #expect(throws: DecodingError.self, "\(json) decoded") { try Self.decode(json) }
        }
    }

    @Test("the reason names the field and what is wrong with it")
    func theReasonNamesTheField() throws {
        let reasons = try [#"{"captureEnabled":"yes"}"#, #"{"futureKey":1}"#, #"{"retention":{"maxAge":"oneYear"}}"#]
            .map { json in
                let store = SettingsStore(location: "memory", reading: { Data(json.utf8) }, writing: { _ in })
                guard case let .corruptData(_, reason)? = store.loadForSession().problem else {
                    throw SettingsError.corruptData(path: "memory", reason: "\(json) loaded")
                }
                return reason
            }
        #expect(reasons[0] == "captureEnabled is not Bool")
        #expect(reasons[1] == "futureKey: not a setting this build knows (a newer TunnelVision's, or a typo)")
        #expect(reasons[2].hasPrefix("retention.maxAge: "), "\(reasons[2])")
    }

    @Test func onlyABlobThatIsNotAnObjectFailsToDecode() {
        for blob in ["", "not json", "[]", #"["captureEnabled"]"#, "42", "null", #""settings""#, #"{"captureEnabled":"#] {
            #expect(throws: DecodingError.self, "\(blob) decoded") { try Self.decode(blob) }
        }
    }
}
