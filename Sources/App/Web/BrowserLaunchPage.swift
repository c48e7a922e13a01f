import Shared

/// What the browser is opened on when `tunnelvision ui` opens one itself: not the address with
/// its key — `xdg-open`'s arguments, like every process's, can be read by any user of the machine
/// (`ps`, /proc/PID/cmdline) — but a small page in a private file that sends the browser on to the
/// address. Only the file's path is in any argument list; the file is the user's alone (0600) in a
/// directory that is theirs alone, and the shell removes it once its key is spent.
package enum BrowserLaunchPage {
    /// The page: an immediate refresh to `url` (no script: nothing to allow), a link in case the
    /// browser does not follow it, and no Referer sent on.
    package static func html(url: String) -> String {
        let address = WebRefusalResponse.html(url)
        return """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
        <meta http-equiv="refresh" content="0; url=\(address)"><title>TunnelVision</title></head>
        <body><p><a href="\(address)">Open TunnelVision</a></p></body></html>

        """
    }

    /// The file's name: a fixed prefix and a random part, so two servers never share one.
    package static func fileName(using random: inout some RandomNumberGenerator) -> String {
        "tunnelvision-open-" + String(UInt64.random(in: .min ... .max, using: &random), radix: 16) + ".html"
    }

    /// Where the file goes.
    package enum Place: Sendable, Equatable {
        /// `$XDG_RUNTIME_DIR` itself: the login's own directory, 0700 and the user's (XDG Base
        /// Directory spec), gone at logout.
        case runtimeDirectory(String)
        /// A new directory made for it (mkdtemp: 0700, a name nobody could have made first),
        /// removed with the file.
        case freshDirectory
    }

    /// `$XDG_RUNTIME_DIR` when it is fit: an absolute path whose own status (lstat: a symbolic
    /// link is not followed, and not fit) is a directory of `user`'s, closed to everyone else.
    /// Otherwise — unset, or another user's, or open to others — a fresh directory: never a fixed
    /// path in a shared place that another user could make first.
    package static func place(environment: [String: String], status: (String) -> PathStatus?, user: UInt32) -> Place {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"),
              let found = status(runtime), found.kind == .directory, found.owner == user, found.mode & 0o077 == 0 else {
            return .freshDirectory
        }
        return .runtimeDirectory(runtime)
    }
}
