import Foundation
import App

/// The web app's one consumer of the tunnel's live feed, however many pages are open: a
/// `LiveFeedReader` on the data directory's ring (woken as `tunnelvision live` is), and every whole
/// second the line `live --json` prints, handed to `publish` (the server's broadcast to every
/// open `/api/live` stream). `current()` is that line now, for `/api/live/now`. The feed exists
/// before the server (the API asks it) and is started once the server is there to publish to.
public actor WebLiveFeed {
    private let directory: URL
    private let reader: LiveFeedReader
    private var ticking: Task<Void, Never>?

    public init(dataDirectory: URL) {
        directory = dataDirectory
        reader = LiveFeedReader(dataDirectory: dataDirectory, wakeup: RingFutexWakeup(dataDirectory: dataDirectory))
    }

    /// Attaches to the ring (or waits for a tunnel) and hands `publish` a line every whole second.
    public func start(publish: @escaping @Sendable (String) -> Void) async {
        guard ticking == nil else { return }
        await reader.start()
        ticking = Task { [weak self] in
            while !Task.isCancelled, let self {
                publish(await self.current())
                // The next whole second, so lines stay a second apart however long a line took.
                let wait = 1 - Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 1)
                try? await Task.sleep(for: .seconds(wait))
            }
        }
    }

    public func stop() async {
        ticking?.cancel()
        ticking = nil
        await reader.stop()
    }

    /// The line `live --json` would print now.
    public func current() async -> String {
        LiveQuestion.line(await reader.snapshot, directory: directory.path, at: Date())
    }
}
