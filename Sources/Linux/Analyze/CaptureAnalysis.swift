import Dispatch
import Foundation
import PacketTunnel
import Shared
import Synchronization

/// `analyze`'s shell: maps a capture, unwraps its link layer, runs every datagram through
/// `CaptureAnalyzer` straight from the mapping, and — with a store — writes the conversations
/// into the history afterwards (flow records only: the packets stay in the file they came from).
///
/// Several workers read one capture at once, each counting its `CaptureShard` of the flows over
/// the same mapping; their conversations are merged in the order they began.
public enum CaptureAnalysis {
    /// Records between progress reports.
    static let progressStride = 1 << 16
    /// Flow records per store transaction.
    static let storeBatch = 1024
    /// Workers beyond this add more rereading of the file than they save.
    public static let maxDefaultWorkers = 4

    /// What `analyze` may hold at its peak for a capture of `conversations` conversations read by
    /// `workers` workers: the program itself; per worker, its flow table full (`CaptureAnalyzer.
    /// maxOpenFlows` open flows), its bytes held ahead of gaps and the capture's pages near its
    /// reading; per conversation, its record (kept for the report: in the worker, then in the
    /// merged list), its first sender and its place in the indexes. Measured (debug build, SYN-only
    /// flows, 2 workers, by `AnalyzeMemoryTests` and `scripts/analyze-memory`): 50 000 flows peak
    /// at 122 MiB (budget 253), 1 000 000 at 1 064 MiB (budget 1 412).
    public static func memoryBudget(conversations: Int, workers: Int) -> Int {
        memoryBase + memoryPerWorker * workers + memoryPerConversation * conversations
    }
    public static let memoryBase = 32 << 20
    public static let memoryPerWorker = 80 << 20
    public static let memoryPerConversation = 1280

    /// One worker per processor, up to `maxDefaultWorkers`.
    public static var defaultWorkers: Int {
        min(maxDefaultWorkers, max(1, ProcessInfo.processInfo.activeProcessorCount))
    }

    /// Reads the capture at `path` with `workers` workers (1 reads it in one pass); `progress`
    /// hears how many records the first worker has read, now and then.
    public static func run(path: String, workers: Int = defaultWorkers,
                           progress: @escaping @Sendable (_ recordsRead: Int) -> Void = { _ in })
        throws(PcapReadError) -> AnalyzedCapture {
        precondition(workers > 0, "at least one worker reads the capture")
        let reader = try PcapFileReader(path: path, accepting: .anyLinkLayer)
        let parts = Mutex<[Part?]>(Array(repeating: nil, count: workers))
        DispatchQueue.concurrentPerform(iterations: workers) { index in
            let shard = CaptureShard(index: index, count: workers)
            let part = read(reader, shard: shard, progress: shard.keepsTallies ? progress : { _ in })
            parts.withLock { $0[index] = part }
        }
        let found = parts.withLock { $0.map { $0! } }
        let tallies = found[0]
        return AnalyzedCapture(path: path, format: reader.format.name, linkType: reader.format.linkType, packets: tallies.records,
                               nonIPFrames: tallies.nonIPFrames, unreadablePackets: tallies.unreadable,
                               conversations: CaptureShard.merged(found.map(\.conversations)), damage: tallies.damage,
                               outOfOrderDrops: found.map(\.outOfOrderDrops).reduce(.none, +))
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
    }

    private static func read(_ reader: PcapFileReader, shard: CaptureShard,
                             progress: (Int) -> Void) -> Part {
        let analyzer = CaptureAnalyzer(shard: shard)
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
        return part
    }

    /// Writes every conversation of `analysis` into `store`'s history.
    public static func save(_ analysis: AnalyzedCapture, to store: FlowStore) async throws(StoreError) {
        let conversations = analysis.conversations
        var start = 0
        while start < conversations.count {
            let end = min(start + storeBatch, conversations.count)
            _ = try await store.write(FlowStoreBatch(flows: conversations[start..<end].map(\.record)))
            start = end
        }
    }
}
