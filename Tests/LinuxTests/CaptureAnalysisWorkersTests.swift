import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// `CaptureAnalysis` with several workers over one mapping, in this process, so that
/// ThreadSanitizer (`scripts/test`) watches the threads share the reader and hand back their parts.
@Suite("A capture read by several workers at once")
struct CaptureAnalysisWorkersTests {
    @Test("every worker count finds the same conversations, in the same order, with the same tallies")
    func everyWorkerCountAgrees() async throws {
        let directory = TemporaryDirectory("tv-workers")
        let path = try await NamedTrafficCapture.write(in: directory.url, seed: 3, packets: 4_000).path
        let alone = try CaptureAnalysis.run(path: path, workers: 1)
        #expect(alone.conversations.contains { $0.record.sni != nil })
        #expect(alone.conversations.contains { $0.record.sni == nil && $0.record.resolvedName != nil })
        #expect(alone.unreadablePackets == 1)
        for workers in [2, 4] {
            let together = try CaptureAnalysis.run(path: path, workers: workers)
            #expect(together.packets == alone.packets && together.unreadablePackets == alone.unreadablePackets
                    && together.nonIPFrames == alone.nonIPFrames)
            #expect(together.conversations.map(\.record) == alone.conversations.map(\.record), "\(workers) workers")
            #expect(together.conversations.map(\.client) == alone.conversations.map(\.client), "\(workers) workers")
        }
    }
}
