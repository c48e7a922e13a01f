import Foundation
import Testing
import Shared
@testable import PacketTunnel

/// The program behind a flow: the pipeline says when a TCP or UDP flow opens, with its local
/// socket's side, and takes the answer back for that lifetime only.
@Suite("The pipeline asks for each flow's program")
struct PipelineProgramTests {
    final class Asked {
        var flows: [(key: FlowKey, local: IPEndpoint, remote: IPEndpoint, firstSeen: UInt64)] = []
    }

    static let curl = ProgramAttribution.program(ProgramFacts(pid: 77, command: "curl", executable: "/usr/bin/curl", uid: 0, user: "root"))

    static func bench() -> (PipelineBench, Asked) {
        let bench = PipelineBench()
        let asked = Asked()
        bench.pipeline.flowOpened = { asked.flows.append(($0, $1, $2, $3)) }
        return (bench, asked)
    }

    @Test("an outbound TCP flow is asked about once, its local side the tunnel's address, and its answer is stored with it")
    func outboundTCP() throws {
        let (bench, asked) = Self.bench()
        bench.pipeline.handle(PipelineBench.tcp(.outbound, flags: [.syn]), now: 10)
        bench.pipeline.handle(PipelineBench.tcp(.inbound, flags: [.syn, .ack]), now: 11)
        bench.pipeline.handle(PipelineBench.tcp(.outbound, payload: 100), now: 12)
        try #require(asked.flows.count == 1)
        let flow = asked.flows[0]
        #expect(flow.local == PipelineBench.device4 && flow.remote == PipelineBench.remote4 && flow.firstSeen == 10)
        bench.pipeline.observeProgram(Self.curl, for: flow.key, firstSeen: 10)
        bench.pipeline.flush(now: 13)
        #expect(bench.store.batches.last?.flows.first { $0.key == flow.key }?.program == Self.curl)
    }

    @Test("an inbound flow's local side is its destination; UDP is asked about too, over IPv6")
    func inboundAndUDP() throws {
        let (bench, asked) = Self.bench()
        bench.pipeline.handle(PipelineBench.udp(.inbound), now: 1)
        bench.pipeline.handle(PipelineBench.tcp(.outbound, v6: true, flags: [.syn]), now: 2)
        try #require(asked.flows.count == 2)
        #expect(asked.flows[0].local.address == TunnelAddressing.ipv4Address && asked.flows[0].key.proto == .udp)
        #expect(asked.flows[0].remote.address != TunnelAddressing.ipv4Address)
        #expect(asked.flows[1].local == PipelineBench.device6 && asked.flows[1].remote == PipelineBench.remote6)
    }

    @Test("an answer for a lifetime that is not the flow's current one is not given to it")
    func anotherLifetimeKeepsNotAsked() {
        let (bench, asked) = Self.bench()
        bench.pipeline.handle(PipelineBench.tcp(.outbound, flags: [.syn]), now: 10)
        let key = asked.flows[0].key
        bench.pipeline.observeProgram(Self.curl, for: key, firstSeen: 9)
        bench.pipeline.flush(now: 11)
        #expect(bench.store.batches.flatMap(\.flows).allSatisfy { $0.program == nil })
    }

    @Test("without a listener nothing is asked, and flows record as before")
    func noListener() {
        let bench = PipelineBench()
        bench.pipeline.handle(PipelineBench.tcp(.outbound, flags: [.syn]), now: 1)
        bench.pipeline.flush(now: 2)
        #expect(bench.store.batches.flatMap(\.flows).count == 1)
    }
}
