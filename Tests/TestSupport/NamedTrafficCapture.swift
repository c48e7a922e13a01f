import Fixtures
import Foundation
import Shared

/// A capture for reading with several workers: named TLS conversations (`HandshakeTraffic`),
/// half of them with their handshakes left out so that only their DNS answer names them, then
/// mixed traffic (`SyntheticTraffic`) and one record the parser refuses. Its conversations fall
/// into every share, and the DNS answers of one share name the flows of another.
package enum NamedTrafficCapture {
    /// Writes `packets` packets (four fifths of them conversations) into `directory`; returns the file.
    package static func write(in directory: URL, seed: UInt64, packets: Int) async throws -> URL {
        let writer = try PcapWriter(config: .init(directory: directory))
        var conversations = HandshakeTraffic(seed: seed)
        var mixed = SyntheticTraffic(seed: seed)
        for index in 0..<packets {
            let packet = index < packets * 4 / 5 ? conversations.next().bytes : mixed.next().bytes
            // The client's port is the one above 443: odd ones lose every segment with data.
            if let parsed = try? PacketParser.parse(packet), let tcp = parsed.tcp, !tcp.payloadRange.isEmpty,
               max(tcp.sourcePort, tcp.destinationPort) % 2 == 1 { continue }
            try await writer.write(packet: packet, originalLength: packet.count,
                                   timestamp: 1_796_005_130_000_000_000 + Int64(index) * 1_000)
        }
        try await writer.write(packet: Data([0x45, 0x00, 0x00]), originalLength: 3, timestamp: 1_796_005_131_000_000_000)
        try await writer.close()
        return await writer.captureFiles()[0]
    }
}
