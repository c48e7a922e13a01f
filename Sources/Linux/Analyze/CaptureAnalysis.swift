import Foundation
import PacketTunnel
import Shared

/// `analyze`'s shell: maps a capture file, unwraps its link layer, runs every datagram through
/// `CaptureAnalyzer` straight from the mapping, and — with a store — writes the conversations
/// into the history afterwards (flow records only: the packets stay in the file they came from).
public enum CaptureAnalysis {
    /// Records between progress reports.
    static let progressStride = 1 << 16
    /// Flow records per store transaction.
    static let storeBatch = 1024

    public static func run(path: String, progress: (_ recordsRead: Int) -> Void = { _ in }) throws(PcapReadError) -> AnalyzedCapture {
        let reader = try PcapFileReader(path: path, accepting: .anyLinkLayer)
        let linkLayer = LinkLayer(linkType: reader.header.linkType) ?? .rawIP
        let analyzer = CaptureAnalyzer()
        var notIP = 0
        var count = 0
        var damage: String?
        do throws(PcapFileReadError<Never>) {
            try reader.forEachRecord { record in
                count += 1
                if count % progressStride == 0 { progress(count) }
                guard let datagram = linkLayer.datagram(in: record.bytes) else {
                    notIP += 1
                    return
                }
                let linkHeader = record.bytes.count - datagram.count
                analyzer.read(datagram: datagram,
                              originalLength: max(datagram.count, Int(record.header.origLen) - linkHeader),
                              nanosecondsSince1970: record.nanosecondsSince1970)
            }
        } catch {
            if case .corrupt(let readError, let index) = error { damage = "record \(index): \(readError)" }
        }
        return AnalyzedCapture(path: path, linkType: reader.header.linkType, packets: count,
                               nonIPFrames: notIP, unreadablePackets: analyzer.unreadable,
                               conversations: analyzer.conversations(),
                               damage: damage)
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
