import Foundation
import Testing
import Shared
@testable import PacketTunnel

@Suite struct PacketPipelineBatchTests {
    let interval: UInt64 = 250_000_000

    @Test func aBatchGoesOutAtBatchSizeWithTheLiveRecordsOfTheFlowsItTouched() throws {
        let bench = PipelineBench(batchSize: 3)
        bench.pipeline.handle(PipelineBench.tcp(.outbound), now: 1)
        bench.pipeline.handle(PipelineBench.udp(.outbound), now: 2)
        #expect(bench.store.batches.isEmpty)
        bench.pipeline.handle(PipelineBench.tcp(.inbound), now: 3)
        let batch = try #require(bench.store.batches.first)
        #expect(batch.packets == bench.feed.published)
        #expect(batch.flows.count == 2)
        #expect(batch.flows[0].packetCount == 2 && batch.flows[0].lastSeen == 3)
        #expect(bench.capture.writeOuts == 1 && bench.feed.notifications == 1)

        bench.pipeline.handle(PipelineBench.udp(.inbound), now: 4)
        #expect(bench.store.batches.count == 1)
    }

    @Test func aBatchGoesOutOnceTheIntervalHasPassedOnHandleAndOnTick() {
        let bench = PipelineBench()
        bench.pipeline.handle(PipelineBench.tcp(.outbound), now: 1_000)
        bench.pipeline.handle(PipelineBench.tcp(.outbound), now: 1_000 + interval - 1)
        #expect(bench.store.batches.isEmpty)
        bench.pipeline.handle(PipelineBench.tcp(.outbound), now: 1_000 + interval)
        #expect(bench.store.batches.map(\.packets.count) == [3])

        bench.pipeline.handle(PipelineBench.udp(.outbound), now: 2_000 + interval)
        _ = bench.pipeline.tick(now: 1_000 + 2 * interval - 1)
        #expect(bench.store.batches.count == 1)
        _ = bench.pipeline.tick(now: 1_000 + 2 * interval)
        #expect(bench.store.batches.map(\.packets.count) == [3, 1])
        _ = bench.pipeline.tick(now: 1_000 + 4 * interval)
        #expect(bench.store.batches.count == 2, "an empty batch is not sent")
    }

    @Test func aResetFlowsKeyComesOutOfTickOnceItsLingerIsOverUnlessItWasOpenedAgain() throws {
        let bench = PipelineBench()
        let key = try PacketParser.parse(PipelineBench.tcp(.outbound)).flowKey
        let linger = bench.pipeline.flowTable.config.closingLinger
        bench.pipeline.handle(PipelineBench.tcp(.outbound, flags: [.syn]), now: 1)
        bench.pipeline.handle(PipelineBench.tcp(.inbound, flags: [.rst]), now: 2)
        #expect(bench.pipeline.tick(now: 3).isEmpty)                 // closing: its relay leg stays
        #expect(bench.pipeline.tick(now: 2 + linger) == [key])
        #expect(bench.pipeline.tick(now: 3 + linger).isEmpty)
        #expect(bench.pipeline.stats.flowsClosed == 1 && bench.pipeline.stats.flowsExpired == 0)
        // Reset again, and the same port opened right after: the new lifetime is not closed.
        bench.pipeline.handle(PipelineBench.tcp(.outbound, flags: [.rst]), now: 5 + linger)
        bench.pipeline.handle(PipelineBench.tcp(.outbound, flags: [.syn]), now: 6 + linger)
        #expect(bench.pipeline.tick(now: 7 + linger).isEmpty)
    }

    @Test func theLastAckAfterBothFINsIsTheClosedFlowsOwnAndANewSYNIsTheNextLifetime() throws {
        let bench = PipelineBench()
        bench.pipeline.handle(PipelineBench.tcp(.outbound, flags: [.fin, .ack]), now: 1)
        bench.pipeline.handle(PipelineBench.tcp(.inbound, flags: [.fin, .ack]), now: 2)
        bench.pipeline.handle(PipelineBench.tcp(.outbound), now: 3)          // the last ACK: still its own
        bench.pipeline.handle(PipelineBench.tcp(.outbound, flags: [.syn]), now: 4)
        // The key is live again, so tick keeps it from the owner: its new connection stays open.
        #expect(bench.pipeline.tick(now: 5).isEmpty)
        bench.pipeline.flush(now: 6)
        let batch = try #require(bench.store.batches.first)
        #expect(batch.flows.map(\.firstSeen) == [1, 4])
        #expect(batch.flows[0].packetCount == 3 && batch.flows[1].packetCount == 1)
        let stats = bench.pipeline.stats
        #expect(stats.flowsOpened == 2 && stats.flowsClosed == 1)
    }

    @Test func anExpiredFlowsFinalRecordReachesTheBatchAndItsKeyComesOutOfTick() throws {
        let bench = PipelineBench()
        let packet = PipelineBench.udp(.outbound)
        bench.pipeline.handle(packet, now: 1)
        bench.pipeline.flush(now: 2)
        let key = try PacketParser.parse(packet).flowKey
        #expect(bench.pipeline.tick(now: 1 + FlowTable.IdleTimeouts().udp) == [key])
        let batch = try #require(bench.store.batches.last)
        #expect(bench.store.batches.count == 2 && batch.packets.isEmpty && batch.flows.map(\.key) == [key])
        #expect(bench.pipeline.stats.flowsExpired == 1 && bench.pipeline.flowTable.count == 0)
    }

    @Test func aFullTableRefusesANewFlowCountsItAndKeepsTheLiveOne() throws {
        let bench = PipelineBench(flowTable: FlowTable(config: .init(maxFlows: 1)))
        bench.pipeline.handle(PipelineBench.udp(.outbound, port: 1), now: 1)
        let refused = bench.pipeline.handle(PipelineBench.udp(.outbound, port: 2), now: 2)
        #expect(refused == .refused(try PacketParser.parse(PipelineBench.udp(.outbound, port: 2))))
        #expect(bench.pipeline.tick(now: 3).isEmpty)
        #expect(bench.pipeline.stats.flowsRefusedAtCapacity == 1 && bench.pipeline.stats.flowsEvicted == 0)
        #expect(bench.pipeline.flowTable.count == 1)
    }

    @Test func anIdleFlowGivenUpForRoomIsCountedAndItsKeyComesOutOfTick() throws {
        let bench = PipelineBench(flowTable: FlowTable(config: .init(maxFlows: 1)))
        bench.pipeline.handle(PipelineBench.udp(.outbound, port: 1), now: 1)
        bench.pipeline.handle(PipelineBench.udp(.outbound, port: 2), now: 1 + FlowTable.IdleTimeouts().udp)
        let first = try PacketParser.parse(PipelineBench.udp(.outbound, port: 1)).flowKey
        #expect(bench.pipeline.tick(now: 2 + FlowTable.IdleTimeouts().udp) == [first])
        #expect(bench.pipeline.stats.flowsEvicted == 1 && bench.pipeline.stats.flowsClosed == 0)
    }

    @Test func aBatchTheStoreRefusesIsLostAndCounted() {
        let bench = PipelineBench(batchSize: 2)
        bench.store.accepting = false
        for now in 0..<4 { bench.pipeline.handle(PipelineBench.tcp(.outbound), now: UInt64(now)) }
        let stats = bench.pipeline.stats
        #expect(stats.storeBatchesFailed == 2 && stats.packetsLostToStoreFailures == 4)
        #expect(stats.lastStoreError != nil && stats.storeBatchesWritten == 0)

        bench.store.accepting = true
        bench.store.outcomes.batchesFailed = 1
        bench.store.outcomes.lastError = "disk I/O error"
        #expect(bench.pipeline.stats.storeBatchesFailed == 3)
        #expect(bench.pipeline.stats.lastStoreError == "disk I/O error", "the store's failure came after the refusal")
    }

    @Test func shutdownSendsWhatIsGatheredAndSyncsTheCapture() async {
        let bench = PipelineBench()
        bench.pipeline.handle(PipelineBench.tcp(.outbound), now: 1)
        await bench.pipeline.shutdown()
        #expect(bench.store.batches.map(\.packets.count) == [1])
        #expect(bench.capture.flushes == 1 && bench.feed.notifications == 1)
    }
}

extension PacketPipelineBatchTests {
    @Test func turningCaptureOffStillWritesOutWhatTheBatchPointsInto() async {
        let bench = PipelineBench()
        bench.pipeline.handle(PipelineBench.tcp(.outbound), now: 1)
        bench.pipeline.setCaptureEnabled(false)
        await bench.pipeline.shutdown()
        #expect(bench.capture.writeOuts == 1 && bench.capture.flushes == 1)
        #expect(bench.store.batches.first?.packets.first?.capture != nil)
    }
}
