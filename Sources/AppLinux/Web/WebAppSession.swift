import App
import Shared
import Foundation

/// The web app serving one data directory, as `tunnelvision ui`, `run --ui` and `demo --ui` start
/// it: the server on its own loop thread, the site's files, the API, and the one live-feed reader
/// whose line every open Dashboard receives each second. Started by `start`, ended by `stop`;
/// who decides when to stop (a signal, the end of a run) is the caller's.
public final class WebAppSession: Sendable {
    public let server: WebServer
    private let feed: WebLiveFeed

    private init(server: WebServer, feed: WebLiveFeed) {
        self.server = server
        self.feed = feed
    }

    /// Binds `listen` for `directory` (which must exist and be readable) and starts serving.
    public static func start(directory: URL, listen: WebListenAddress) async throws -> WebAppSession {
        try DataDirectory.verify(directory, access: .read)
        let feed = WebLiveFeed(dataDirectory: directory)
        let site = try WebSite(directory: WebSite.bundledDirectory)
        let api = WebAPI(dataDirectory: directory, liveFeed: feed)
        let server = try WebServer(listening: listen.endpoint, responder: WebRouter(api: api, site: site))
        server.start()
        await feed.start { server.broadcast(event: "dashboard", data: $0) }
        return WebAppSession(server: server, feed: feed)
    }

    public func announcement(dataDirectory: URL, lifetime: WebUIAnnouncement.Lifetime) -> WebUIAnnouncement {
        WebUIAnnouncement(url: server.url, listen: server.address.description, dataDirectory: dataDirectory.path,
                          lifetime: lifetime)
    }

    public func stop() async {
        await feed.stop()
        server.stop()
    }
}
