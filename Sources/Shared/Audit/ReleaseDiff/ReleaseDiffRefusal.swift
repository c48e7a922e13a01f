/// Why two sessions cannot be diffed, the first that fails in this order. Each is final for that
/// pair: the caller offers other sessions (or ends the open one) and says the sentence.
package enum ReleaseDiffRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// Both sides are one session.
    case sameSession
    /// The sessions belong to two projects: two apps, not two releases of one.
    case differentProjects
    /// The project given is not the sessions' own, so its allowlist would be the wrong one.
    case notTheSessionsProject
    /// That session is a baseline: recorded without the app, it has no release.
    case baseline(sessionID: Int64)
    /// That session is still recording, so its flows are not all in yet.
    case stillOpen(sessionID: Int64)

    package var description: String {
        switch self {
        case .sameSession:
            "A release diff compares two sessions, and both sides are the same session."
        case .differentProjects:
            "The two sessions belong to different projects; a release diff compares releases of one app."
        case .notTheSessionsProject:
            "The project given is not the one these sessions belong to."
        case let .baseline(id):
            "Session \(id) is a baseline, recorded without the app, so it has no release to compare."
        case let .stillOpen(id):
            "Session \(id) is still recording; end it first, so that all of its flows are compared."
        }
    }
}
