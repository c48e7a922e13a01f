/// The settings' decoding rule, in one place. A field that is missing takes its factory value: an
/// older build wrote the file, and the person never chose that value. Anything else that is not
/// exactly a value this build knows — the wrong type, null, an unknown choice, a key it does not
/// know (a newer build's, a typo) — makes the whole file unreadable. Falling back field by field
/// would turn `"captureEnabled": "yes"` (or a misspelt key) into full capture the person may have
/// turned off, and the next save would drop what it did not understand; an unreadable file is
/// reported and left exactly as it is instead.
struct SettingsKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Decoder {
    /// The object's fields as `Keys`, after refusing any key `Keys` does not name.
    func settingsContainer<Keys: CodingKey>(keyedBy keys: Keys.Type) throws -> KeyedDecodingContainer<Keys> {
        let every = try container(keyedBy: SettingsKey.self)
        let unknown = every.allKeys.filter { Keys(stringValue: $0.stringValue) == nil }
        if let first = unknown.min(by: { $0.stringValue < $1.stringValue }) {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath + [first],
                                                    debugDescription: "not a setting this build knows (a newer TunnelVision's, or a typo)"))
        }
        return try container(keyedBy: keys)
    }
}

extension KeyedDecodingContainer {
    /// The field's value; nil only when the field is absent. Null, the wrong type or an unknown
    /// value throws.
    func settingValue<Value: Decodable>(forKey key: Key) throws -> Value? {
        contains(key) ? try decode(Value.self, forKey: key) : nil
    }
}
