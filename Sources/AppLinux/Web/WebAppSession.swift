import App
import Foundation
import Posix
import Shared

/// The web app serving one data directory, as `tunnelvision ui`, `run --ui` and `demo --ui` start
/// it: the server on its own loop thread, the site's files, the API, the one live-feed reader
/// whose line every open Dashboard receives each second, and the channel `tunnelvision ui link`
/// asks for a new address. Started by `start`, ended by `stop`; who decides when to stop (a
/// signal, the end of a run) is the caller's.
package final class WebAppSession: Sendable {
    package let server: WebServer
    package let dataDirectory: URL
    package let lifetime: WebUIAnnouncement.Lifetime
    /// Why `tunnelvision ui link` cannot reach this server, when it cannot (said once, at start).
    package let linkProblem: String?
    /// Why the server stopped serving by itself (its loop failed), yielded once, for the command
    /// to end with the reason as the tunnel's does; finished without a value after `stop`.
    package let failures: AsyncStream<EventLoopError>
    private let endFailures: AsyncStream<EventLoopError>.Continuation
    private let feed: WebLiveFeed
    private let link: WebLinkListener?

    private init(server: WebServer, dataDirectory: URL, lifetime: WebUIAnnouncement.Lifetime, feed: WebLiveFeed,
                 link: WebLinkListener?, linkProblem: String?,
                 failures: (AsyncStream<EventLoopError>, AsyncStream<EventLoopError>.Continuation)) {
        (self.failures, endFailures) = failures
        self.server = server
        self.dataDirectory = dataDirectory
        self.lifetime = lifetime
        self.feed = feed
        self.link = link
        self.linkProblem = linkProblem
    }

    /// Binds `listen` for `directory` (which must exist and be readable) and starts serving.
    package static func start(directory: URL, listen: WebListenAddress, lifetime: WebUIAnnouncement.Lifetime,
                             limits: WebServerLimits = .standard) async throws -> WebAppSession {
        try DataDirectory.verify(directory, access: .read)
        let feed = WebLiveFeed(dataDirectory: directory)
        let site = try WebSite(directory: WebSite.bundledDirectory)
        let api = WebAPI(dataDirectory: directory, liveFeed: feed)
        let server = try WebServer(listening: listen.endpoint, responder: WebRouter(api: api, site: site), limits: limits)
        var link: WebLinkListener?
        var linkProblem: String?
        do {
            link = try WebLinkListener.start(dataDirectory: directory, server: server)
        } catch {
            linkProblem = "'tunnelvision ui link' cannot reach this web app (\(error)); restart it for another address"
        }
        let failures = AsyncStream.makeStream(of: EventLoopError.self)
        server.start(whenFailed: { [failed = failures.continuation] in
            failed.yield($0)
            failed.finish()
        })
        await feed.start(publish: { server.broadcast(event: "dashboard", data: $0) }, streams: { await server.openStreams() })
        return WebAppSession(server: server, dataDirectory: directory, lifetime: lifetime, feed: feed, link: link,
                             linkProblem: linkProblem, failures: failures)
    }

    /// The first address, said as the command prints it.
    package var announcement: WebUIAnnouncement {
        WebUIAnnouncement(url: server.url, listen: server.address.description, dataDirectory: dataDirectory.path,
                          keyLifetime: server.limits.keyLifetime, lifetime: lifetime)
    }

    /// A page for a browser to be opened on, with a key of its own (`BrowserLaunchFile`).
    package func browserFile(environment: [String: String]) throws(BrowserLaunchFile.Failure) -> BrowserLaunchFile {
        try BrowserLaunchFile.make(for: server, environment: environment)
    }

    package func stop() async {
        link?.stop()
        await feed.stop()
        server.stop()
        endFailures.finish()
    }
}
