/// What `tunnelvision ui` prints once it listens: the address to open, as a sentence or as one
/// JSON line a script (or a test) reads before the server starts answering.
public struct WebUIAnnouncement: Sendable, Equatable {
    public let url: String
    public let listen: String
    public let dataDirectory: String

    public init(url: String, listen: String, dataDirectory: String) {
        self.url = url
        self.listen = listen
        self.dataDirectory = dataDirectory
    }

    public var text: String {
        "TunnelVision is at \(url) (open it in a browser on this machine; Ctrl-C stops it)"
    }

    public var json: String {
        "{\"url\": \(WebRefusalResponse.jsonString(url)), \"listen\": \(WebRefusalResponse.jsonString(listen)), "
            + "\"dataDirectory\": \(WebRefusalResponse.jsonString(dataDirectory))}"
    }
}
