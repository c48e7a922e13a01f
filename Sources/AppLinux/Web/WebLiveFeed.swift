import Foundation
import App

/// The web app's one consumer of the tunnel's live feed, however many pages are open: a
/// `LiveFeedReader` on the data directory's ring (woken as `tunnelvision live` is), and every whole
/// second the line `live --json` prints, handed to `publish` (the server's broadcast to every
/// open `/api/live` stream). `current()` is that line now, for `/api/live/now`. The feed exists
/// before the server (the API asks it) and is started once the server is there to publish to.
/// The reader holds the ring only while a page watches (`LiveFeedDemand`).
package actor WebLiveFeed {
    private let directory: URL
    private let reader: LiveFeedReader
    private var ticking: Task<Void, Never>?
    private var demand: LiveFeedDemand

    package init(dataDirectory: URL, grace: TimeInterval = LiveFeedDemand.defaultGrace) {
        directory = dataDirectory
        reader = LiveFeedReader(dataDirectory: dataDirectory, wakeup: RingFutexWakeup(dataDirectory: dataDirectory))
        demand = LiveFeedDemand(grace: grace)
    }

    /// Every whole second: asks `streams` how many Dashboard streams are open, holds or lets go of
    /// the ring as `LiveFeedDemand` says, and while it reads hands `publish` the line.
    package func start(publish: @escaping @Sendable (String) -> Void, streams: @escaping @Sendable () async -> Int) async {
        guard ticking == nil else { return }
        ticking = Task { [weak self] in
            while !Task.isCancelled, let self {
                let open = await streams()
                if await self.look(streams: open), open > 0 { publish(await self.line()) }
                // The next whole second, so lines stay a second apart however long a line took.
                let wait = 1 - Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 1)
                try? await Task.sleep(for: .seconds(wait))
            }
        }
    }

    package func stop() async {
        ticking?.cancel()
        ticking = nil
        await reader.stop()
    }

    /// Whether the reader reads after this second's look.
    private func look(streams: Int) async -> Bool {
        await apply(demand.tick(at: Date(), streams: streams))
        return demand.reading
    }

    private func apply(_ step: LiveFeedDemand.Step) async {
        switch step {
        case .start: await reader.start()
        case .stop: await reader.stop()
        case .stay: break
        }
    }

    /// The line `live --json` would print now: a page asked, so the reader reads (for a while).
    package func current() async -> String {
        await apply(demand.asked(at: Date()))
        return await line()
    }

    private func line() async -> String {
        LiveQuestion.line(await reader.snapshot, directory: directory.path, at: Date())
    }
}
