/// What `tunnelvision ui` prints once it listens: the address to open, as a sentence or as one
/// JSON line a script (or a test) reads before the server starts answering.
public struct WebUIAnnouncement: Sendable, Equatable {
    public let url: String
    public let listen: String
    public let dataDirectory: String
    public let lifetime: Lifetime

    /// What ends the server, said beside its address.
    public enum Lifetime: Sendable, Equatable {
        /// `tunnelvision ui`, `demo --ui`: until Ctrl-C or TERM.
        case untilStopped
        /// `run --ui`: with the monitored command's run.
        case withTheRun
    }

    public init(url: String, listen: String, dataDirectory: String, lifetime: Lifetime = .untilStopped) {
        self.url = url
        self.listen = listen
        self.dataDirectory = dataDirectory
        self.lifetime = lifetime
    }

    public var text: String {
        let ending = switch lifetime {
        case .untilStopped: "Ctrl-C stops it"
        case .withTheRun: "it stops when the run ends"
        }
        return "TunnelVision is at \(url) (open it in a browser on this machine; \(ending))"
    }

    public var json: String {
        "{\"url\": \(WebRefusalResponse.jsonString(url)), \"listen\": \(WebRefusalResponse.jsonString(listen)), "
            + "\"dataDirectory\": \(WebRefusalResponse.jsonString(dataDirectory))}"
    }
}
