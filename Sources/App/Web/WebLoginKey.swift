/// One key for the web app's door: an address that carries it (`http://ADDR/?key=…`), good for
/// one browser, once, until `expires`. What `WebAccess.mint` hands out; the secret itself stays in
/// `WebAccess`, and the address is the only place it is written.
package struct WebLoginKey: Sendable, Equatable {
    /// Names the key to the shell (which removes what it made for it — the browser's launch file —
    /// once the key is spent); never the secret.
    package struct ID: Sendable, Hashable, Comparable {
        package let value: UInt64
        package init(_ value: UInt64) { self.value = value }
        package static func < (lhs: ID, rhs: ID) -> Bool { lhs.value < rhs.value }
    }

    /// How a key stopped being good: what a second use of it is told.
    package enum Spent: Sendable, Equatable {
        /// Exchanged for the session cookie.
        case used
        /// Not used within its lifetime.
        case expired
        /// Retired unused because too many newer keys were made after it.
        case superseded
    }

    package let id: ID
    /// The address to open: it carries the key.
    package let url: String
    package let expires: ContinuousClock.Instant
}
