/// How much of the machine one browser tab — or one hostile local program — may hold through the
/// web server. Every length the parser reads and every second a connection is given is bounded
/// here, so a flood costs a fixed, small amount; the values are the server's only copy.
package struct WebServerLimits: Sendable, Equatable {
    /// The request line and header fields together, through the blank line. Browsers send under
    /// 2 KiB (cookies included); 16 KiB is nginx's large_client_header_buffers default, more than
    /// any page of ours needs. Over it: 431.
    package var maximumHeaderBytes: Int
    /// The request target. The API's longest (a flows query with every filter and a cursor) is
    /// under 1 KiB; 8 KiB is RFC 9112 § 3's recommended minimum a server supports. Over it: 414.
    package var maximumTargetBytes: Int
    /// A request body. Only `POST /api/settings` has one (a JSON object of two short strings);
    /// 64 KiB bounds each connection's buffer. Over it: 413, before the body is read.
    package var maximumBodyBytes: Int
    /// Connections served at once. A page holds a handful (its fetches and one event stream);
    /// 256 covers ten pages many times over and bounds the descriptors and buffers a flood holds.
    /// At the cap, a connection that never showed the session cookie gives way to a new one,
    /// the oldest first (`WebAdmission`); one that did is never closed for a newcomer, and with
    /// only those open the newcomer is told 503 and closed.
    package var maximumConnections: Int
    /// How long a connection may wait with no request begun (before its first, or between two):
    /// a browser reopens one at once, so 10 s frees slots without costing a page anything.
    package var idleTimeout: Duration
    /// From a request's first byte to its last — a head sent in part and then dribbled included:
    /// the clock starts at the first byte and more bytes do not restart it; also how long a
    /// response may wait for the client to take any more of it. A browser sends a request in one
    /// write; 10 s refuses a client that dribbles a header a byte a second (408) without hurting a
    /// slow but honest one.
    package var requestDeadline: Duration
    /// An event stream with nothing to say sends a comment this often, so proxies and the browser
    /// see it alive (the WHATWG spec suggests about 15 s).
    package var heartbeatInterval: Duration
    /// Bytes an event stream may have waiting for a client that does not read: an hour of the
    /// live feed's one event a second is far less; past it the stream is closed, never grown.
    package var maximumStreamBacklog: Int
    /// Connections taken from the backlog per readiness, so a burst is spread over loop turns.
    package var acceptBurst: Int
    /// How long a key (the address `tunnelvision ui` prints, or `ui link` makes) may wait for its
    /// browser: long enough to copy an address into a browser, short enough that one seen later
    /// (a scrollback, a screen share) no longer opens anything. A used key is spent at once.
    package var keyLifetime: Duration
    /// The kernel's queue of connections not yet accepted.
    package var listenBacklog: Int32
    /// After accept(2) fails for want of descriptors, how long the listener is left alone (the
    /// level-triggered loop would otherwise spin on it).
    package var acceptRetryDelay: Duration

    package init(maximumHeaderBytes: Int, maximumTargetBytes: Int, maximumBodyBytes: Int, maximumConnections: Int,
                idleTimeout: Duration, requestDeadline: Duration, heartbeatInterval: Duration,
                maximumStreamBacklog: Int, acceptBurst: Int, keyLifetime: Duration, listenBacklog: Int32,
                acceptRetryDelay: Duration) {
        self.maximumHeaderBytes = maximumHeaderBytes
        self.maximumTargetBytes = maximumTargetBytes
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumConnections = maximumConnections
        self.idleTimeout = idleTimeout
        self.requestDeadline = requestDeadline
        self.heartbeatInterval = heartbeatInterval
        self.maximumStreamBacklog = maximumStreamBacklog
        self.acceptBurst = acceptBurst
        self.keyLifetime = keyLifetime
        self.listenBacklog = listenBacklog
        self.acceptRetryDelay = acceptRetryDelay
    }

    package static let standard = WebServerLimits(
        maximumHeaderBytes: 16 * 1024, maximumTargetBytes: 8 * 1024, maximumBodyBytes: 64 * 1024,
        maximumConnections: 256, idleTimeout: .seconds(10), requestDeadline: .seconds(10),
        heartbeatInterval: .seconds(15), maximumStreamBacklog: 1024 * 1024, acceptBurst: 32,
        keyLifetime: .seconds(5 * 60), listenBacklog: 512, acceptRetryDelay: .milliseconds(100))

    /// The key lifetime in words ("5 minutes"), as the help and the printed address say it.
    package var keyLifetimeText: String { Self.words(keyLifetime) }

    static func words(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        if seconds >= 60 && seconds % 60 == 0 { return "\(seconds / 60) minute\(seconds == 60 ? "" : "s")" }
        return "\(seconds) second\(seconds == 1 ? "" : "s")"
    }

    /// The most a connection buffers while reading one request: its head and its body.
    var maximumRequestBytes: Int { maximumHeaderBytes + maximumBodyBytes }
}
