import Fixtures
import Foundation
import Shared

/// A capture file of synthetic traffic, written by the real `PcapWriter`, so what is measured and
/// inspected is exactly what the tunnel would have written.
enum SyntheticCapture {
    static let progressInterval = 100_000

    /// Writes `count` packets of `SyntheticTraffic(seed:)` to `destination`. The writer names its
    /// own files, so it writes into a fresh directory beside `destination` (same file system, so the
    /// final move is a rename) that is removed afterwards.
    static func write(count: Int, seed: UInt64, snaplen: UInt32, handshakes: Bool = false, to destination: String,
                      replace: Bool) async throws(Failure) {
        let workDirectory = try FileSystem.makeTemporaryDirectory(
            in: FileSystem.parentDirectory(of: destination), prefix: ".tvlab-capture-")
        defer { FileSystem.removeTree(workDirectory) }
        let config = PcapWriter.Config(directory: URL(fileURLWithPath: workDirectory), snaplen: snaplen,
                                       maxFileBytes: .max)
        let writer: PcapWriter
        do { writer = try PcapWriter(config: config) } catch { throw Failure("\(error)") }
        // One wall-clock base for the whole file keeps the spacing SyntheticTraffic chose.
        let base = MonotonicAnchor.now().wallClockNanosecondsSince1970
        do {
            try await fill(writer, count: count, seed: seed, handshakes: handshakes, base: base)
            try await writer.close()
        } catch {
            try? await writer.close()
            throw Failure("\(error)")
        }
        let files = await writer.captureFiles()
        guard files.count == 1, let file = files.first else {
            throw Failure("the capture writer produced \(files.count) files instead of one")
        }
        try FileSystem.move(file.path, to: destination, replace: replace)
    }

    /// Runs on the writer's executor: one hop for the whole loop instead of one per packet.
    private static func fill(_ writer: isolated PcapWriter, count: Int, seed: UInt64, handshakes: Bool,
                             base: Int64) throws(PcapError) {
        var traffic = SyntheticTraffic(seed: seed)
        var conversations = HandshakeTraffic(seed: seed)
        for written in 1...count {
            let (bytes, offset) = handshakes ? conversations.next().parts : traffic.next().parts
            try writer.write(packet: bytes, originalLength: bytes.count, timestamp: base &+ Int64(offset))
            if written % progressInterval == 0 { Console.progress("  \(written) packets written…") }
        }
    }
}

extension SyntheticTraffic.Packet {
    var parts: (Data, UInt64) { (bytes, offsetNanoseconds) }
}

extension HandshakeTraffic.Packet {
    var parts: (Data, UInt64) { (bytes, offsetNanoseconds) }
}
