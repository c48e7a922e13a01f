/// Why the server closed a connection. The ones a person may want to know about — a refusal, a
/// client too slow, a server too full — are logged with their status and sentence.
package enum HTTPCloseReason: Sendable, Equatable {
    /// The last response was written and the connection was not to be kept (Connection: close,
    /// HTTP/1.0, an event stream whose client left).
    case finished
    /// No request begun within the idle timeout.
    case idle
    /// The client hung up, or its socket failed.
    case clientGone
    /// The request was refused by the parser (its status was sent).
    case refused(HTTPRefusal)
    /// A request was begun and not finished before the request deadline (408 sent).
    case requestTimedOut
    /// The client took nothing of a response, or let an event stream's backlog fill, for too long.
    case slowReader
    /// The server already served its maximum of connections, none idle (503 sent).
    case overCap
    /// It never showed the session cookie, and gave way to a new connection at the cap
    /// (`WebAdmission`).
    case evicted
    /// The server is stopping.
    case serverStopping
    /// The file being sent (its path) could not be read to its length: the head was out, so the
    /// connection ends short of its Content-Length, which tells the client the download failed.
    case bodyUnreadable(String)

    /// The status sent before the close, and the sentence the server logs; nil for closes that
    /// are ordinary (finished, idle, gone, evicted, stopping).
    package func refusal(_ limits: WebServerLimits) -> (status: HTTPStatus, sentence: String)? {
        switch self {
        case .finished, .idle, .clientGone, .evicted, .serverStopping:
            nil
        case .refused(let refusal):
            (refusal.status, refusal.sentence)
        case .requestTimedOut:
            (.requestTimeout, "the request was not complete within \(limits.requestDeadline.components.seconds) s; "
                + "send the whole request at once")
        case .slowReader:
            (.requestTimeout, "the client took no more of the response within \(limits.requestDeadline.components.seconds) s")
        case .overCap:
            (.serviceUnavailable, "the server is already serving \(limits.maximumConnections) connections; try again in a moment")
        case .bodyUnreadable(let path):
            (.internalServerError, "\(path) could not be read to its end (removed or cut short meanwhile); "
                + "the download stopped short, so ask for it again")
        }
    }
}
