import App
import Foundation
import Synchronization

/// The server's keys: each address it hands out opens one browser, once, within the key
/// lifetime (`WebAccess` decides; this is the shell that keeps the clock and runs what was asked
/// to happen when a key is spent).
extension WebServer {
    /// A new address for another browser — `tunnelvision ui link`'s, or the page a browser is
    /// opened on. `whenSpent` runs once its key is used, expires, is retired for newer ones, or
    /// the server stops, whichever comes first. Nil once the server has stopped. Any thread.
    package func mintAddress(whenSpent: @escaping @Sendable () -> Void = {}) -> WebLoginKey? {
        var random = SystemRandomNumberGenerator()
        let minted = keys.withLock { state -> (key: WebLoginKey, retired: [WebLoginKey.ID])? in
            guard !state.stopped else { return nil }
            let minted = state.access.mint(now: .now, using: &random)
            state.whenSpent[minted.key.id] = whenSpent
            return minted
        }
        guard let minted else { return nil }
        for id in minted.retired { keySpent(id) }
        let lifetime = limits.keyLifetime
        loop.execute { [weak self] in self?.expireKeys(after: lifetime) }
        return minted.key
    }

    /// Collects the keys whose lifetime has ended, `delay` from now (loop thread, or before the
    /// loop runs).
    func expireKeys(after delay: Duration) {
        loop.schedule(after: delay) { [weak self] in
            guard let self else { return }
            for id in keys.withLock({ $0.access.expire(now: .now) }) { keySpent(id) }
        }
    }

    func keySpent(_ id: WebLoginKey.ID) {
        let action = keys.withLock { $0.whenSpent.removeValue(forKey: id) }
        action?()
    }

    /// The server stopped: no key opens anything any more, and no new one is made.
    func spendEveryKey() {
        let actions = keys.withLock { state in
            state.stopped = true
            defer { state.whenSpent = [:] }
            return Array(state.whenSpent.values)
        }
        for action in actions { action() }
    }
}
