/// Who gives way when a connection arrives and the server already serves its maximum
/// (`WebServerLimits.maximumConnections`). A local program can open connections as fast as the
/// owner's browser, and hold them with a request it never finishes (slowloris): so a connection
/// earns its place by showing the session cookie, and until it has, it is the first to go.
///
/// - Below the cap: the newcomer is served.
/// - At the cap: the oldest connection that never showed the cookie — waiting for its first
///   request, or holding half of one — is closed for the newcomer. The newest are spared longest,
///   so the owner's fresh connection has the time it needs to send its request.
/// - A connection that showed the cookie is never closed for a newcomer (who has shown nothing
///   yet); with only those open, the newcomer is told 503. Those close by their own timeouts.
package enum WebAdmission {
    package struct Connection: Sendable, Equatable {
        /// The shell's name for it (its descriptor).
        package let id: Int32
        /// When it was accepted, in the order connections came: smaller is older.
        package let accepted: UInt64
        /// It has shown a valid session cookie (or just traded a key for one).
        package let authenticated: Bool

        package init(id: Int32, accepted: UInt64, authenticated: Bool) {
            self.id = id
            self.accepted = accepted
            self.authenticated = authenticated
        }
    }

    package enum Decision: Sendable, Equatable {
        case admit
        /// Close this one (quietly: it is not told why), then admit the newcomer.
        case evict(Int32)
        /// Tell the newcomer 503 and close it.
        case refuse
    }

    package static func decide(open: some Collection<Connection>, maximum: Int) -> Decision {
        guard open.count >= maximum else { return .admit }
        let oldest = open.filter { !$0.authenticated }.min { $0.accepted < $1.accepted }
        return oldest.map { .evict($0.id) } ?? .refuse
    }
}
