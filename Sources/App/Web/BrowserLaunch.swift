/// Whether `tunnelvision ui` opens a browser itself (with `xdg-open`), decided from the options
/// and the environment: only with a display to show it on, never when asked not to, and never as
/// root on behalf of a sudo user — the browser would run as root with root's profile — without
/// saying so.
package enum BrowserLaunch: Sendable, Equatable {
    case open
    /// Not opened; the sentence (if any) is said on stderr.
    case skip(String?)

    package static func decide(noOpen: Bool, environment: [String: String], effectiveUserID: UInt32) -> BrowserLaunch {
        if noOpen { return .skip(nil) }
        let display = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains { !($0 ?? "").isEmpty }
        guard display else { return .skip(nil) }
        if effectiveUserID == 0, let user = environment["SUDO_USER"], !user.isEmpty {
            return .skip("not opening a browser as root for \(user); open the address above in your own browser")
        }
        return .open
    }
}
