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

    @Test func anUnknownFieldIsIgnored() throws {
        let settings = try Self.decode(#"{"captureEnabled":false,"hasSeenIntro":true,"resolver":{"custom":"198.18.0.53"}}"#)
        #expect(settings == AppSettings(captureEnabled: false))
    }

    @Test func aFieldOfTheWrongTypeFallsBackAlone() throws {
        let settings = try Self.decode(#"""
            {"tlsInspectionEnabled":"yes","plaintextPersistenceEnabled":true,"captureEnabled":null,
             "captureDetail":7,"retention":{"maxAge":"oneDay","maxCaptureSize":["big"]}}
            """#)
        #expect(settings == AppSettings(plaintextPersistenceEnabled: true,
                                        retention: RetentionSettings(maxAge: .oneDay, maxCaptureSize: .gigabytes1)))
        #expect(try Self.decode(#"{"captureEnabled":false,"retention":"forever"}"#)
                == AppSettings(captureEnabled: false))
    }

    @Test func anUnknownRawValueFallsBackAlone() throws {
        let settings = try Self.decode(#"""
            {"captureEnabled":false,"captureDetail":"everything",
             "retention":{"maxAge":"oneYear","maxCaptureSize":"megabytes256","maxPlaintextAge":"oneHour"}}
            """#)
        #expect(settings == AppSettings(captureEnabled: false,
                                        retention: RetentionSettings(maxAge: .oneWeek, maxCaptureSize: .megabytes256)))
    }

    @Test func onlyABlobThatIsNotAnObjectFailsToDecode() {
        for blob in ["", "not json", "[]", #"["captureEnabled"]"#, "42", "null", #""settings""#, #"{"captureEnabled":"#] {
            #expect(throws: DecodingError.self, "\(blob) decoded") { try Self.decode(blob) }
        }
    }
}
