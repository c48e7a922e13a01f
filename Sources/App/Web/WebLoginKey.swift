/// One key for the web app's door: an address that carries it (`http://ADDR/?key=…`), good for
/// one browser, once, until `expires`. What `WebAccess.mint` hands out; the secret itself stays in
/// `WebAccess`, and the address is the only place it is written.
public struct WebLoginKey: Sendable, Equatable {
    /// Names the key to the shell (which removes what it made for it — the browser's launch file —
    /// once the key is spent); never the secret.
    public struct ID: Sendable, Hashable, Comparable {
        public let value: UInt64
        public init(_ value: UInt64) { self.value = value }
        public static func < (lhs: ID, rhs: ID) -> Bool { lhs.value < rhs.value }
    }

    /// How a key stopped being good: what a second use of it is told.
    public enum Spent: Sendable, Equatable {
        /// Exchanged for the session cookie.
        case used
        /// Not used within its lifetime.
        case expired
        /// Retired unused because too many newer keys were made after it.
        case superseded
    }

    public let id: ID
    /// The address to open: it carries the key.
    public let url: String
    public let expires: ContinuousClock.Instant
}
