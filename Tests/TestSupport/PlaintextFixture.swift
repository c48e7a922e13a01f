import Foundation
import Shared

/// Decrypted content as the tunnel leaves it: `.tvpt` files written by the real `PlaintextWriter`
/// (rotating every ~100 bytes, so each chunk gets a file of its own) and their index rows, dated
/// `daysAgo` in the past, in a data directory's history.
package enum PlaintextFixture {
    /// Writes `count` chunks of 40 bytes, one file each, and their rows under one connection.
    /// Returns the files, oldest sequence first.
    @discardableResult
    package static func content(in dataDirectory: URL, chunks count: Int, daysAgo: Double,
                               port: UInt16 = 41_000) async throws -> [URL] {
        let anchor = MonotonicAnchor(uptimeNanoseconds: 1_000_000_000,
                                     wallClockNanosecondsSince1970: Int64((Date().timeIntervalSince1970 - daysAgo * 86_400) * 1e9))
        let writer = PlaintextWriter(config: .init(directory: DataDirectoryLayout.plaintext(in: dataDirectory), maxFileBytes: 100))
        let key = FlowKey(proto: .tcp, source: IPEndpoint(address: IPAddress(ipv4: 0x0A07_0002), port: port),
                          destination: IPEndpoint(address: IPAddress(ipv4: 0xC612_0001), port: 443))
        var rows: [PlaintextChunkRecord] = []
        for _ in 0..<count {
            guard let location = try writer.write(Data(repeating: 0x41, count: 40), stream: 1, direction: .outbound,
                                                  timestamp: Int64((Date().timeIntervalSince1970 - daysAgo * 86_400) * 1e9)) else {
                throw FixtureError.notWritten
            }
            rows.append(PlaintextChunkRecord(flowKey: key, timestamp: 1_500_000_000, direction: .outbound, stream: 1,
                                             location: location, storedLength: 40, originalLength: 40))
        }
        try writer.close()
        var record = FlowRecord(key: key, firstSeen: 1_000_000_000, tlsStatus: .inspected)
        record.lastSeen = 2_000_000_000
        let store = try FlowStore(dataDirectory: dataDirectory, anchor: anchor, origin: "plaintext \(daysAgo) days")
        _ = try await store.write(FlowStoreBatch(flows: [record], plaintext: rows))
        await store.close()
        return writer.files()
    }

    enum FixtureError: Error { case notWritten }
}
