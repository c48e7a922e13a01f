import Dispatch
import Foundation
import PacketTunnel
import Shared
import Synchronization

/// `analyze`'s shell: maps a capture, unwraps its link layer, runs every datagram through
/// `CaptureAnalyzer` straight from the mapping, and — with a store — writes the conversations
/// into the history afterwards: the flow records, then each packet's row (stamp, direction, length,
/// flags — the bytes stay in the file they came from), so the activity axis counts them.
///
/// Several workers read one capture at once, each counting its `CaptureShard` of the flows over
/// the same mapping; their conversations are merged in the order they began.
package enum CaptureAnalysis {
    /// Records between progress reports.
    static let progressStride = 1 << 16
    /// Flow records per store transaction.
    static let storeBatch = 1024
    /// Packet rows per store transaction.
    static let packetStoreBatch = 16_384
    /// Workers beyond this add more rereading of the file than they save.
    static let maxDefaultWorkers = 4

    /// What `analyze` may hold at its peak for a capture of `conversations` conversations read by
    /// `workers` workers: the program itself; per worker, its flow table full (`CaptureAnalyzer.
    /// maxOpenFlows` open flows), its bytes held ahead of gaps and the capture's pages near its
    /// reading; per conversation, its record (kept for the report: in the worker, then in the
    /// merged list), its first sender and its place in the indexes. Measured (debug build, SYN-only
    /// flows, 2 workers, by `AnalyzeMemoryTests` and `scripts/analyze-memory`): 50 000 flows peak
    /// at 122 MiB (budget 253), 1 000 000 at 1 064 MiB (budget 1 412). Without a history: one kept
    /// for `save` adds each packet's `PacketMeta` (`keepingPackets`).
    package static func memoryBudget(conversations: Int, workers: Int) -> Int {
        memoryBase + memoryPerWorker * workers + memoryPerConversation * conversations
    }
    static let memoryBase = 32 << 20
    static let memoryPerWorker = 80 << 20
    static let memoryPerConversation = 1280

    /// One worker per processor, up to `maxDefaultWorkers`.
    package static var defaultWorkers: Int {
        min(maxDefaultWorkers, max(1, ProcessInfo.processInfo.activeProcessorCount))
    }

    /// Reads the capture at `path` with `workers` workers (1 reads it in one pass); `progress`
    /// hears how many records the first worker has read, now and then. `keepingPackets` keeps
    /// every counted packet in `recordedPackets` (for `save`), held until the reading ends.
    package static func run(path: String, workers: Int = defaultWorkers, keepingPackets: Bool = false,
                           progress: @escaping @Sendable (_ recordsRead: Int) -> Void = { _ in })
        throws(PcapReadError) -> AnalyzedCapture {
        precondition(workers > 0, "at least one worker reads the capture")
        let reader = try PcapFileReader(path: path, accepting: .anyLinkLayer)
        let parts = Mutex<[Part?]>(Array(repeating: nil, count: workers))
        DispatchQueue.concurrentPerform(iterations: workers) { index in
            let shard = CaptureShard(index: index, count: workers)
            let part = read(reader, shard: shard, keepingPackets: keepingPackets,
                            progress: shard.keepsTallies ? progress : { _ in })
            parts.withLock { $0[index] = part }
        }
        let found = parts.withLock { $0.map { $0! } }
        let tallies = found[0]
        var analysis = AnalyzedCapture(path: path, format: reader.format.name, linkType: reader.format.linkType, packets: tallies.records,
                               nonIPFrames: tallies.nonIPFrames, unreadablePackets: tallies.unreadable,
                               conversations: CaptureShard.merged(found.map(\.conversations)), damage: tallies.damage,
                               outOfOrderDrops: found.map(\.outOfOrderDrops).reduce(.none, +))
        if keepingPackets { analysis.recordedPackets = found.flatMap(\.packets) }
        return analysis
    }

    /// What one worker found: its part's conversations and, from the first, the tallies.
    private struct Part: Sendable {
        var records = 0
        var nonIPFrames = 0
        var unreadable = 0
        var conversations: [AnalyzedCapture.Conversation] = []
        var damage: String?
        /// Of this worker's own flows.
        var outOfOrderDrops = OutOfOrderDrops.none
        var packets: [PacketMeta] = []
    }

    private static func read(_ reader: PcapFileReader, shard: CaptureShard, keepingPackets: Bool,
                             progress: (Int) -> Void) -> Part {
        let analyzer = CaptureAnalyzer(shard: shard, keepsPackets: keepingPackets)
        var part = Part()
        do throws(PcapFileReadError<Never>) {
            try reader.forEachRecord { record in
                part.records += 1
                if part.records % progressStride == 0 { progress(part.records) }
                // A pcapng interface of a link type not read counts with the frames that carry no IP.
                guard let datagram = record.linkLayer?.datagram(in: record.bytes) else {
                    part.nonIPFrames += 1
                    return
                }
                let linkHeader = record.bytes.count - datagram.count
                analyzer.read(datagram: datagram,
                              originalLength: max(datagram.count, record.originalLength - linkHeader),
                              nanosecondsSince1970: record.nanosecondsSince1970)
            }
        } catch {
            if case .corrupt(let readError, let index) = error { part.damage = "record \(index): \(readError)" }
        }
        part.unreadable = analyzer.unreadable
        part.outOfOrderDrops = analyzer.outOfOrderDrops
        part.conversations = analyzer.conversations()
        part.packets = analyzer.packets
        return part
    }

    /// Writes every conversation of `analysis`, and its recorded packets, into the history in
    /// `dataDirectory`, dated by the capture's own clock (a store on the machine's clock would add
    /// today's epoch to stamps that already are instants since 1970).
    package static func save(_ analysis: AnalyzedCapture, toDataDirectory dataDirectory: URL) async throws {
        let store = try FlowStore(dataDirectory: dataDirectory, anchor: CaptureAnalyzer.captureClock)
        let conversations = analysis.conversations
        var start = 0
        while start < conversations.count {
            let end = min(start + storeBatch, conversations.count)
            _ = try await store.write(FlowStoreBatch(flows: conversations[start..<end].map(\.record)))
            start = end
        }
        // Every packet's flow is stored by now, in this session: each batch finds its flows there.
        let packets = analysis.recordedPackets
        start = 0
        while start < packets.count {
            let end = min(start + packetStoreBatch, packets.count)
            let outcome = try await store.write(FlowStoreBatch(packets: Array(packets[start..<end])))
            if outcome.orphanedPackets > 0 {
                throw UnmatchedPackets(count: outcome.orphanedPackets)
            }
            start = end
        }
    }

    /// Packets whose conversation the history did not hold (a defect of the reading, never the
    /// person's): the conversations and the packets before them are written.
    struct UnmatchedPackets: Error, CustomStringConvertible {
        package let count: Int
        package var description: String {
            "\(count) packets of the capture matched no conversation written; please report this"
        }
    }
}
