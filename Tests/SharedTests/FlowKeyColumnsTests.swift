import Foundation
import TestSupport
import Testing
@testable import Shared

@Suite struct FlowKeyColumnsTests {
    typealias F = StoreFixtures

    @Test("GRE (47) and ESP (50) between the same hosts are two rows, and each comes back with its number")
    func unnamedProtocolsKeepTheirNumberThroughTheStore() async throws {
        let directory = TemporaryDirectory()
        let gre = F.key(1, proto: IPProtocolNumber(wire: 47))
        let esp = F.key(1, proto: IPProtocolNumber(wire: 50))
        #expect(gre.endpointA == esp.endpointA && gre.endpointB == esp.endpointB)
        let writer = try F.store(in: directory)
        try await writer.write(FlowStoreBatch(flows: [F.record(gre, packets: 1), F.record(esp, packets: 2)],
                                              packets: [F.packet(gre, at: F.uptime(2)), F.packet(esp, at: F.uptime(3))]))
        await writer.close()

        let reader = try F.store(in: directory)
        #expect(try await reader.flowCount() == 2)
        #expect(try await reader.flow(matching: gre)?.packetCount == 1)
        #expect(try await reader.flow(matching: esp)?.packetCount == 2)
        let protocols = try await reader.recentFlows(limit: 10).map(\.key.proto.rawValue)
        #expect(protocols.sorted() == [47, 50])
        await reader.close()
        let raw = try SQLiteConnection(path: F.databaseURL(in: directory).path, mode: .readOnly)
        defer { raw.close() }
        // On disk too: the column holds the wire number itself.
        #expect(try raw.integer("SELECT count(*) FROM flows WHERE proto = 47") == 1)
        #expect(try raw.integer("SELECT count(*) FROM flows WHERE proto = 50") == 1)
    }
}
