import Foundation

/// How long the history and the captures are kept, and how much disk the captures may take. Closed
/// sets of choices rather than free numbers: there is nothing to validate, and each maps onto a
/// word the person can type. The size cap governs captures only — SQLite does not give back the
/// space of deleted rows, so a byte cap on the history could not be honoured; the history is bounded
/// by age. The factory default is a cap, not "unlimited": an uncapped capture fills the disk.
///
/// Decrypted content has its own, shorter age (ADR 0007), which can never be unlimited, and a
/// fixed byte ceiling the person cannot raise (`plaintextByteCeiling`), applied by the same sweep.
package struct RetentionSettings: Codable, Sendable, Equatable {
    package var maxAge: RetentionAge
    package var maxCaptureSize: RetentionSize
    package var maxPlaintextAge: PlaintextAge

    package init(maxAge: RetentionAge = .oneWeek, maxCaptureSize: RetentionSize = .gigabytes1,
                maxPlaintextAge: PlaintextAge = .oneDay) {
        self.maxAge = maxAge
        self.maxCaptureSize = maxCaptureSize
        self.maxPlaintextAge = maxPlaintextAge
    }

    /// The most disk decrypted content may take: 512 MiB, not a setting. It may delete content
    /// the age would keep.
    package static let plaintextByteCeiling: UInt64 = 512 << 20

    /// One week, 1 GiB.
    package static let `default` = RetentionSettings()

    /// Nothing of the history and captures is ever deleted for age or size (decrypted content
    /// still expires: it has no unlimited).
    package var isUnlimited: Bool { maxAge == .unlimited && maxCaptureSize == .unlimited }

    enum CodingKeys: String, CodingKey {
        case maxAge, maxCaptureSize, maxPlaintextAge
    }

    /// Strict, as `AppSettings` is (`SettingsDecoding`): only a missing field takes its factory value.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.settingsContainer(keyedBy: CodingKeys.self)
        let factory = RetentionSettings.default
        maxAge = try container.settingValue(forKey: .maxAge) ?? factory.maxAge
        maxCaptureSize = try container.settingValue(forKey: .maxCaptureSize) ?? factory.maxCaptureSize
        maxPlaintextAge = try container.settingValue(forKey: .maxPlaintextAge) ?? factory.maxPlaintextAge
    }
}

/// How long decrypted content is kept: an hour, a day (the default) or a week — never unlimited.
package enum PlaintextAge: String, Codable, Sendable, CaseIterable {
    case oneHour, oneDay, oneWeek

    package var maxAge: TimeInterval {
        switch self {
        case .oneHour: 3_600
        case .oneDay: 86_400
        case .oneWeek: 7 * 86_400
        }
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let age = PlaintextAge(rawValue: text) else {
            let why = text == RetentionAge.unlimited.rawValue
                ? "decrypted content is never kept without a limit; choose oneHour, oneDay or oneWeek"
                : "not a decrypted-content age; choose oneHour, oneDay or oneWeek"
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: why))
        }
        self = age
    }
}

/// How long history and captures are kept.
package enum RetentionAge: String, Codable, Sendable, CaseIterable {
    case oneDay, oneWeek, oneMonth, unlimited

    /// The age past which things are deleted, in seconds; nil for no limit. A month is 30 days.
    package var maxAge: TimeInterval? {
        switch self {
        case .oneDay: 86_400
        case .oneWeek: 7 * 86_400
        case .oneMonth: 30 * 86_400
        case .unlimited: nil
        }
    }
}

/// How much disk the captures may take, in binary units (MiB, GiB).
package enum RetentionSize: String, Codable, Sendable, CaseIterable {
    case megabytes256, gigabytes1, gigabytes4, unlimited

    /// The cap in bytes; nil for no limit.
    package var maxBytes: UInt64? {
        switch self {
        case .megabytes256: 256 << 20
        case .gigabytes1: 1 << 30
        case .gigabytes4: 4 << 30
        case .unlimited: nil
        }
    }
}
