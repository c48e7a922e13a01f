import Foundation
import Shared
import TestSupport
import Testing
@testable import App

/// `activity(in:)` against the real store: the kept counts drawn as bars.
@Suite("History activity axis over the real store")
struct HistoryActivityTests {
    typealias H = HistoryFixtures

    /// Packets at these offsets (seconds after the anchor), one flow each minute.
    static let instants: [Double] = [0.2, 0.9, 1.5, 30, 61, 62.5, 400, 401, 1_799.9]

    static func filled(_ directory: TemporaryDirectory) async throws -> FlowStore {
        let store = try H.store(in: directory)
        var flows: [FlowRecord] = []
        var packets: [PacketMeta] = []
        for (index, instant) in instants.enumerated() {
            let key = H.key(index, proto: index.isMultiple(of: 2) ? .tcp : .udp)
            flows.append(H.record(key, first: instant, last: instant, sni: "h\(index).example"))
            packets.append(H.packet(key, at: instant))
        }
        try await store.write(FlowStoreBatch(flows: flows, packets: packets))
        return store
    }

    /// The naive reference: how many of `instants` fall in the bar.
    static func expected(_ bar: ActivityBar) -> Int {
        instants.filter { H.date($0) >= bar.start && H.date($0) < bar.end }.count
    }

    @Test("no packets means no axis, even for a stretch; flows alone are not activity")
    func noPacketsNoAxis() async throws {
        let directory = TemporaryDirectory()
        let store = try H.store(in: directory)
        let reader = HistoryReader(store: store)
        #expect(try await reader.activity() == .empty)
        try await store.upsertFlow(H.record(H.key(1), first: 0, last: 1))
        #expect(try await reader.activity(in: H.date(0)...H.date(60)) == .empty)
        await store.close()
    }

    @Test("the whole history in at most axisBars bars, zeroes between, every packet counted, whatever the filter")
    func wholeHistory() async throws {
        let directory = TemporaryDirectory()
        let store = try await Self.filled(directory)
        let reader = HistoryReader(store: store)
        let axis = try await reader.activity()
        // 0.2 s … 1 799.9 s: 30 minutes, in 1 min bars.
        #expect(axis.bars.count == 30 && axis.bars.allSatisfy { $0.duration == 60 })
        #expect(axis.bars.map(\.packetCount) == axis.bars.map(Self.expected))
        #expect(axis.totalPackets == Self.instants.count && axis.bars.contains(where: \.isQuiet))
        await reader.apply(HistoryFilter(protocols: [.udp]))
        #expect(try await reader.activity() == axis)
        let few = HistoryReader(store: store, policy: HistoryPolicy(axisBars: 5))
        let coarse = try await few.activity()
        #expect(coarse.bars.count <= 5 && coarse.totalPackets == Self.instants.count)
        await store.close()
    }

    @Test("a single packet is one bar")
    func singlePacket() async throws {
        let directory = TemporaryDirectory()
        let store = try H.store(in: directory)
        let key = H.key(1)
        try await store.write(FlowStoreBatch(flows: [H.record(key, first: 5, last: 5)], packets: [H.packet(key, at: 5.5)]))
        let axis = try await HistoryReader(store: store).activity()
        #expect(axis.bars == [ActivityBar(start: H.date(5), duration: 1, packetCount: 1)])
        await store.close()
    }

    @Test("a zoomed stretch is drawn finer and counts only what is inside; a stretch with nothing left is zeroes")
    func zoomedStretch() async throws {
        let directory = TemporaryDirectory()
        let store = try await Self.filled(directory)
        let reader = HistoryReader(store: store)
        let whole = try await reader.activity()
        let first = try #require(whole.bars.first)
        #expect(reader.canZoom(into: first) && reader.canZoomFurther(in: whole))
        let inside = try await reader.activity(in: first.range)
        #expect(inside.span == first.range && inside.bars.count == 12 && inside.bars.allSatisfy { $0.duration == 5 })
        #expect(inside.bars.map(\.packetCount) == inside.bars.map(Self.expected) && inside.totalPackets == 4)
        let second = try #require(inside.bars.first)
        let finest = try await reader.activity(in: second.range)
        #expect(finest.bars.map(\.packetCount) == [2, 1, 0, 0, 0] && !reader.canZoomFurther(in: finest))
        let gone = try await reader.activity(in: H.date(-7_200)...H.date(-3_600))
        #expect(!gone.isEmpty && gone.totalPackets == 0)
        await store.close()
    }
}
