import Shared

/// What every screen of the web app says when it has lost its server, and when it decides so: one
/// place for the wording and the timing, which the page asks for once (`GET /api/contact`, which
/// is also what it asks to learn whether the server still answers) and keeps, since a server that
/// is gone can no longer say it.
///
/// Two ways to lose it, never conflated:
/// - **not answering**: no answer at all for `silenceSeconds` while the page asked at least every
///   `askEverySeconds` (the process stopped, the machine slept, the port closed);
/// - **session refused**: the server answers, but refuses this browser's session (401) — it was
///   restarted, and each start has a new secret, so the old cookie opens nothing. Asking again
///   cannot mend that; a new address can.
///
/// The page adds the time of the last answer to `asOf` ("… as of 14:03:07."), in its own clock.
package enum ServerContact {
    /// A page hears from its server at least this often while shown (its own polls, the
    /// Dashboard's line each second, or else a question of its own).
    package static let askEverySeconds = 2
    /// This long with no answer, a screen stops presenting what it shows as current. Five seconds:
    /// the Dashboard's line comes every second, so five missed lines is no hiccup.
    package static let silenceSeconds = 5

    package enum Loss: String, Sendable, CaseIterable {
        case notAnswering
        case sessionRefused
    }

    /// The notice's heading.
    package static func title(_ loss: Loss) -> String {
        switch loss {
        case .notAnswering: "The app's server is not answering"
        case .sessionRefused: "The app's server no longer accepts this browser"
        }
    }

    /// What happened and what to check or do, in a sentence or two.
    package static func text(_ loss: Loss) -> String {
        switch loss {
        case .notAnswering:
            "Is 'tunnelvision ui' still running? If it stopped, start it again and open the address it prints. "
                + "This page checks again every few seconds and brings itself up to date once the server answers."
        case .sessionRefused:
            "The server answers, but this browser's session is not one of its own: it was restarted since this page "
                + "was opened (each start has a new secret), or it is another server on the same address. To go on, "
                + WebAccessRefusal.openPrinted + "."
        }
    }

    /// Said before the time of the last answer: what the screen still shows is that old.
    package static func asOf(_ loss: Loss) -> String {
        switch loss {
        case .notAnswering: "What this screen shows is as of"
        case .sessionRefused: "What this screen shows was read before, as of"
        }
    }

    /// `GET /api/contact`: the timing and both notices, as the page keeps them.
    package static var json: String {
        var out = JSONWriter()
        out.beginObject()
        out.number("askEverySeconds", askEverySeconds)
        out.number("silenceSeconds", silenceSeconds)
        for loss in Loss.allCases {
            switch loss {
            case .notAnswering: out.beginObject("notAnswering")
            case .sessionRefused: out.beginObject("sessionRefused")
            }
            out.string("title", title(loss))
            out.string("text", text(loss))
            out.string("asOf", asOf(loss))
            out.endObject()
        }
        out.endObject()
        return String(decoding: out.writer.bytes, as: UTF8.self)
    }
}
