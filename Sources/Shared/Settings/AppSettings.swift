/// What the person decided: the one durable cross-process contract. The `tunnelvision` command
/// writes it when a setting is changed, and the tunnel reads it once when a session starts, so a
/// choice survives the tunnel stopping and the machine restarting. Stored as one JSON blob
/// (`settings.json`), so a reader never sees half a write.
public struct AppSettings: Codable, Sendable, Equatable {
    /// Terminate TLS to inspect it. Off by default: inspection is opt-in, with the person's own CA.
    public var tlsInspectionEnabled: Bool
    /// Keep decrypted content on disk. Off by default: it is the most private thing there is.
    public var plaintextPersistenceEnabled: Bool
    /// Write the packets to `.pcap` files.
    public var captureEnabled: Bool
    /// How much of each packet the capture keeps.
    public var captureDetail: CaptureDetail
    /// How long and how much is kept.
    public var retention: RetentionSettings

    public init(tlsInspectionEnabled: Bool = false, plaintextPersistenceEnabled: Bool = false,
                captureEnabled: Bool = true, captureDetail: CaptureDetail = .fullPayload,
                retention: RetentionSettings = .default) {
        self.tlsInspectionEnabled = tlsInspectionEnabled
        self.plaintextPersistenceEnabled = plaintextPersistenceEnabled
        self.captureEnabled = captureEnabled
        self.captureDetail = captureDetail
        self.retention = retention
    }

    /// The factory settings: what a fresh install, and a tunnel that cannot read the file, uses.
    public static let `default` = AppSettings()

    /// Tolerant field by field: a field that is missing, of the wrong type or with an unknown
    /// value falls back to its factory value and the others are kept; unknown fields are ignored.
    /// The settings will grow, and strict decoding would turn the file a newer or older version
    /// wrote into an error that wipes every choice the person made. Only a blob that is not a
    /// JSON object throws.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let factory = AppSettings.default
        tlsInspectionEnabled = container.tolerantValue(forKey: .tlsInspectionEnabled) ?? factory.tlsInspectionEnabled
        plaintextPersistenceEnabled = container.tolerantValue(forKey: .plaintextPersistenceEnabled)
            ?? factory.plaintextPersistenceEnabled
        captureEnabled = container.tolerantValue(forKey: .captureEnabled) ?? factory.captureEnabled
        captureDetail = container.tolerantValue(forKey: .captureDetail) ?? factory.captureDetail
        retention = container.tolerantValue(forKey: .retention) ?? factory.retention
    }
}
