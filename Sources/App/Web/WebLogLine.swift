import Foundation

/// The line the server writes to stderr for each refusal: time, peer, method, path — the query
/// left out, since the login's carries the key — status and reason. Method and target are already
/// visible ASCII (the parser refuses anything else), so the line cannot be split or forged.
public enum WebLogLine {
    public static func refusal(at time: Date, peer: String, method: String?, target: String?,
                               status: HTTPStatus, sentence: String) -> String {
        let path = target.map { String($0.prefix { $0 != "?" }) } ?? "-"
        return "\(time.formatted(.iso8601)) tunnelvision ui: \(peer) \(method ?? "-") \(path) \(status.code) \(sentence)"
    }
}
