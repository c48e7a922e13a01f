/// What this build does with one value of a setting (`SettingChange.support`).
///
/// Refused or stored-only: a value that would start decrypting or keeping decrypted content is
/// refused, never stored, so that a later build able to do it never starts on a choice made before
/// it could (the person opts in again, with that build in front of them). A value a later build
/// would merely enforce — a retention limit — is stored with a plain warning, so that settings
/// scripted ahead of an upgrade take effect with it.
package enum SettingSupport: Sendable, Equatable {
    /// The tunnel does what the value says.
    case enforced
    /// Kept in the settings, but nothing in this build acts on it; the reason says what happens.
    case storedOnly(String)
    /// Not stored: `settings set` refuses it, and a tunnel that finds it stored (by hand, or by
    /// another build) warns and runs as without it. The reason says what this build does instead.
    case refused(String)
}
