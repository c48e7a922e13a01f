import Foundation

/// What `tunnelvision ui` prints once it listens, and what `tunnelvision ui link` prints for
/// another browser: an address to open, as a sentence or as one JSON line a script (or a test)
/// reads. The address carries a key that opens one browser, once, within `keyLifetime`.
package struct WebUIAnnouncement: Sendable, Equatable {
    package let url: String
    package let listen: String
    package let dataDirectory: String
    package let keyLifetime: Duration
    /// What ends the server, said beside its first address; nil for `ui link`'s, which another
    /// command prints.
    package let lifetime: Lifetime?

    /// What ends the server, said beside its address.
    package enum Lifetime: Sendable, Equatable {
        /// `tunnelvision ui`, `demo --ui`: until Ctrl-C or TERM.
        case untilStopped
        /// `run --ui`: with the monitored command's run.
        case withTheRun
    }

    package init(url: String, listen: String, dataDirectory: String, keyLifetime: Duration = WebServerLimits.standard.keyLifetime,
                lifetime: Lifetime? = .untilStopped) {
        self.url = url
        self.listen = listen
        self.dataDirectory = dataDirectory
        self.keyLifetime = keyLifetime
        self.lifetime = lifetime
    }

    package var text: String {
        let opening = "open it in a browser on this machine within \(WebServerLimits.words(keyLifetime)); its key works once"
        return switch lifetime {
        case .untilStopped: "TunnelVision is at \(url) (\(opening), and 'tunnelvision ui link' prints another; Ctrl-C stops it)"
        case .withTheRun: "TunnelVision is at \(url) (\(opening), and 'tunnelvision ui link' prints another; it stops when the run ends)"
        case nil: "TunnelVision is at \(url) (\(opening))"
        }
    }

    package var json: String {
        "{\"url\": \(WebRefusalResponse.jsonString(url)), \"listen\": \(WebRefusalResponse.jsonString(listen)), "
            + "\"dataDirectory\": \(WebRefusalResponse.jsonString(dataDirectory)), "
            + "\"keyLifetimeSeconds\": \(keyLifetime.components.seconds)}"
    }

    /// Reads `json` back (what `ui link` receives from the server); nil for anything else.
    package init?(json line: String, lifetime: Lifetime? = nil) {
        struct Fields: Decodable {
            let url: String
            let listen: String
            let dataDirectory: String
            let keyLifetimeSeconds: Int64
        }
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Data(line.utf8)) else { return nil }
        self.init(url: fields.url, listen: fields.listen, dataDirectory: fields.dataDirectory,
                  keyLifetime: .seconds(fields.keyLifetimeSeconds), lifetime: lifetime)
    }
}
