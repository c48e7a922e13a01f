import Foundation
import Shared

/// The timeline over the real `FlowStore`: a list of connections newest first, narrowed by a
/// filter and read a page at a time, each page chaining at most `policy.maxPagesPerLoad` store
/// queries; a flow's packets for the inspector; pages for export; and the activity axis.
///
/// An actor because paging is mutable state (the cursor, the accumulated list) that several
/// actions can touch at once. A load started before another (a filter typed over a refresh) is
/// superseded: its result is dropped, never merged into the newer list.
package actor HistoryReader {
    let store: FlowStore
    package nonisolated let policy: HistoryPolicy
    let localAddresses: Set<IPAddress>
    package private(set) var snapshot = HistorySnapshot()
    private var generation = 0
    private var subscribers: [UUID: AsyncStream<HistorySnapshot>.Continuation] = [:]

    package init(store: FlowStore, policy: HistoryPolicy = .default,
                localAddresses: Set<IPAddress> = TunnelAddressing.localAddresses) {
        self.store = store
        self.policy = policy
        self.localAddresses = localAddresses
    }

    /// Every snapshot from now on, starting with the current one.
    package func snapshots() -> AsyncStream<HistorySnapshot> {
        let (stream, continuation) = AsyncStream.makeStream(of: HistorySnapshot.self, bufferingPolicy: .bufferingNewest(16))
        let id = UUID()
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        continuation.yield(snapshot)
        return stream
    }

    /// Rebuilds the list from the newest connection.
    package func refresh() async {
        await load(filter: snapshot.filter, order: snapshot.order, after: nil, appending: false)
    }

    /// The next page back in time; nothing when nothing older remains or a load is running.
    package func loadMore() async {
        guard snapshot.state == .loaded, snapshot.hasMore else { return }
        await load(filter: snapshot.filter, order: snapshot.order, after: snapshot.nextCursor, appending: true)
    }

    /// Narrows the list to `filter`, sorts it in `order` and rebuilds it from its first connection
    /// — or from just after `cursor`, where a command said the previous page ended (a position in
    /// the same order).
    package func apply(_ filter: HistoryFilter, order: FlowOrder = .newestFirst, after cursor: FlowCursor? = nil) async {
        await load(filter: filter, order: order, after: cursor, appending: false)
    }

    /// Rows the last load read, matched or not.
    package var scannedInLastLoad: Int { snapshot.scannedInLastLoad }
    package var hasMore: Bool { snapshot.hasMore }

    /// The flow's packets in time order, at most `policy.packetsPerFlow`; `unknownFlow` when the
    /// history holds no flow `id`.
    package func packets(forFlow id: Int64) async throws(HistoryError) -> [StoredPacket] {
        do {
            guard try await store.flow(id: id) != nil else { throw HistoryError.unknownFlow(id) }
            return try await store.packets(forFlow: id, limit: policy.packetsPerFlow)
        } catch let error as HistoryError {
            throw error
        } catch {
            throw HistoryError.of(error)
        }
    }

    /// Up to `limit` flows after `cursor`, newest first, unfiltered, for an export: carries its
    /// cursor in and out (the next one is `FlowCursor(after: page.last.stored)`) and touches none
    /// of the list's paging state.
    package func flowPage(limit: Int, after cursor: FlowCursor?) async throws(HistoryError) -> [HistoryFlow] {
        let rows: [StoredFlow]
        do {
            rows = try await store.recentFlows(limit: limit, before: cursor)
        } catch {
            throw HistoryError(error)
        }
        return rows.map { HistoryFlow($0, localAddresses: localAddresses) }
    }

    /// Up to `limit` flows after `cursor` that `filter` keeps, in `order`, for a filtered or sorted
    /// export: every further row is looked at until the page is full (no query budget: an export
    /// asks for all of them), with the store narrowing what it can, as the list does. Each flow
    /// carries its `position`, where the next page starts.
    package func flowPage(limit: Int, after cursor: FlowCursor?, filter: HistoryFilter,
                         order: FlowOrder = .newestFirst) async throws(HistoryError) -> [HistoryFlow] {
        if case .failure(let refusal) = filter.search { throw HistoryError.unreadable("its search cannot be read: \(refusal)") }
        var everything = policy
        everything.pageSize = max(1, limit)
        everything.maxPagesPerLoad = .max
        var fill = HistoryPageFill(filter: filter, order: order, policy: everything, localAddresses: localAddresses, after: cursor)
        do {
            while !fill.isSettled {
                fill.consume(try await store.flows(in: order, limit: fill.queryLimit, after: fill.cursor,
                                                   narrowing: filter.storeNarrowing(order: order)))
            }
        } catch {
            throw HistoryError.of(error)
        }
        return fill.matches
    }

    /// The activity axis (`HistoryReader+Activity`) and the zoom rule live beside this file.

    private func load(filter: HistoryFilter, order: FlowOrder, after cursor: FlowCursor?, appending: Bool) async {
        generation += 1
        let mine = generation
        snapshot.filter = filter
        snapshot.order = order
        if case .failure(let refusal) = filter.search {
            // Nothing is read under a search that cannot be read: it would look like no matches.
            snapshot.state = .failed(refusal.description)
            publish()
            return
        }
        snapshot.state = appending ? .loadingOlder : .loading
        publish()
        var fill = HistoryPageFill(filter: filter, order: order, policy: policy, localAddresses: localAddresses, after: cursor)
        let narrowing = filter.storeNarrowing(order: order)
        do {
            while !fill.isSettled {
                // The status, reason, program and stretch are narrowed by the store: a rare one
                // (a connection inspection broke) is found however far back, not only within the
                // query budget — asked for by an option or by the search's terms — and a stretch
                // keeps its connections first whatever the order.
                let rows = try await store.flows(in: order, limit: fill.queryLimit, after: fill.cursor, narrowing: narrowing)
                guard mine == generation else { return }
                fill.consume(rows)
            }
        } catch {
            guard mine == generation else { return }
            snapshot.state = .failed(HistoryError.of(error).description)
            publish()
            return
        }
        guard mine == generation else { return }
        let hasMore = fill.hasMore ?? false
        snapshot = HistorySnapshot(
            flows: appending ? HistoryPaging.appending(fill.matches, to: snapshot.flows) : fill.matches,
            filter: filter, order: order, state: .loaded, hasMore: hasMore, scannedInLastLoad: fill.scanned,
            queriesInLastLoad: fill.queries, flowsInLastLoad: fill.matches.count,
            nextCursor: hasMore ? fill.cursor : nil)
        publish()
    }

    private func publish() {
        for continuation in subscribers.values { continuation.yield(snapshot) }
    }

    private func unsubscribe(_ id: UUID) {
        subscribers[id] = nil
    }
}
