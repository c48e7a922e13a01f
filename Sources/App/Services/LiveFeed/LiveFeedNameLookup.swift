import Foundation
import Shared

/// Asks the history for the names of what the live dashboard shows, a few connections per frame
/// (`LiveDashboardNames` decides which). The store is opened lazily and again after a failure —
/// the tunnel creates the history when its first session starts, which may be after the
/// dashboard did — but at most once per `reopenInterval`.
package actor LiveFeedNameLookup {
    private let openStore: @Sendable () throws -> FlowStore
    private let localAddresses: Set<IPAddress>
    private let reopenInterval: TimeInterval
    private var store: FlowStore?
    private var lastOpenAttempt: Date?
    private var session: UInt64?
    package private(set) var names: LiveDashboardNames

    package init(names: LiveDashboardNames = LiveDashboardNames(), reopenInterval: TimeInterval = 5,
                localAddresses: Set<IPAddress> = TunnelAddressing.localAddresses,
                openStore: @escaping @Sendable () throws -> FlowStore) {
        self.names = names
        self.reopenInterval = reopenInterval
        self.localAddresses = localAddresses
        self.openStore = openStore
    }

    /// Looks up the connections due among `wanted` and returns every name known so far. A failed
    /// query leaves the connection unnamed for now (its address is shown) and drops the store so
    /// the next round reopens it. A different `session` than the last round's forgets every answer
    /// first: the same connection in a new session is a new row of the history.
    package func refresh(wanted: [FlowKey], now: Date, session: UInt64? = nil) async -> LiveDashboardNames {
        if session != self.session {
            self.session = session
            names.forgetAll()
        }
        let due = names.due(wanted, now: now)
        guard !due.isEmpty, let store = openedStore(now: now) else { return names }
        for key in due {
            do {
                let flow = try await store.flow(matching: key).map { HistoryFlow($0, localAddresses: localAddresses) }
                names.record(key, flowID: flow?.id, name: flow?.name?.text, remote: flow?.endpoints?.remote.address, now: now)
            } catch {
                await self.store?.close()
                self.store = nil
                break
            }
        }
        return names
    }

    private func openedStore(now: Date) -> FlowStore? {
        if let store { return store }
        if let last = lastOpenAttempt, now.timeIntervalSince(last) < reopenInterval { return nil }
        lastOpenAttempt = now
        store = try? openStore()
        return store
    }
}
