import Shared

/// The Settings card *Decrypted content* (screens.md § Settings): what its switch allows and what
/// it says, all carried to the web page in `storage --json`'s "plaintext" (`settings --json` is
/// the settings document itself, decoded strictly, so it carries nothing beside the settings).
package struct DecryptedContentCard: Sendable, Equatable {
    /// The keep switch can be turned on only while inspection is on; it can always be turned off.
    package let keepSwitchEnabled: Bool
    /// Why the switch is as it is, when that needs saying.
    package let keepHint: String?
    package let ceilingBytes: UInt64
    package let ceilingSentence: String

    package init(_ settings: AppSettings) {
        keepSwitchEnabled = settings.tlsInspectionEnabled || settings.plaintextPersistenceEnabled
        keepHint = switch (settings.tlsInspectionEnabled, settings.plaintextPersistenceEnabled) {
        case (false, false): "Turn on inspection of secure traffic first: only inspected connections have content to keep."
        case (false, true): "Inspection is off, so nothing new is kept; turning this off stays possible."
        case (true, _): nil
        }
        ceilingBytes = RetentionSettings.plaintextByteCeiling
        ceilingSentence = "Decrypted content never takes more than \(StorageReport.plaintextCeiling) on disk, a fixed "
            + "ceiling: past it the oldest goes first, whatever the expiry."
    }
}
