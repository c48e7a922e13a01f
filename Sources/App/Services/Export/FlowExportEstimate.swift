import Foundation
import Shared

/// The export's size, said before it is written, without rendering the whole document: the
/// count is the history's (`connections`), and the entries are rendered — by `FlowExport` itself,
/// so no second copy of the format — only for the most recent `sampleSize` connections.
///
/// - When those are every connection the export would hold, the size is the document's to the
///   byte (the time it is written at has a fixed width).
/// - Otherwise it is the sample's mean entry times the count, between the real header and a
///   trailer of totals scaled alike: an estimate, and said to be one ("about"). Exactness would
///   need every entry's names, addresses and digits, i.e. reading every row the export reads —
///   the cost this exists to avoid (20 000 rows scattered over a large history).
package enum FlowExportEstimate {
    /// Connections rendered to measure: one query of the history, a few milliseconds; entries
    /// vary mostly by their names, which a thousand recent ones show well.
    package static let sampleSize = 1_000

    /// - Parameters:
    ///   - sample: the most recent connections, newest first: the first `sampleSize` of the
    ///     export's (all of them when it holds fewer).
    ///   - connections: how many the export would hold.
    package static func bytes(sample: [HistoryFlow], connections: Int, limit: Int = FlowExport.defaultLimit,
                             truncated: Bool, exportedAt: Date) -> (bytes: UInt64, estimated: Bool) {
        var out = JSONWriter(capacity: 64 * 1024)
        var stamps = UTCTimestamp()
        var totals = FlowExport.Totals()
        FlowExport.header(&out, exportedAt: exportedAt, limit: limit)
        let header = out.writer.count
        for flow in sample.prefix(connections) {
            FlowExport.entry(flow, &out, stamps: &stamps)
            totals.add(flow)
        }
        let rendered = totals.connections
        let entries = out.writer.count - header
        let estimated = rendered < connections
        if estimated && rendered > 0 {
            let scale = Double(connections) / Double(rendered)
            totals.connections = connections
            totals.packets = scaled(totals.packets, scale)
            totals.bytesOut = scaled(totals.bytesOut, scale)
            totals.bytesIn = scaled(totals.bytesIn, scale)
        }
        let beforeTrailer = out.writer.count
        FlowExport.trailer(&out, totals: totals, truncated: truncated)
        let trailer = out.writer.count - beforeTrailer
        let entryBytes = estimated && rendered > 0 ? (Double(entries) * Double(connections) / Double(rendered)).rounded() : Double(entries)
        return (UInt64(header) + UInt64(entryBytes) + UInt64(trailer), estimated)
    }

    private static func scaled(_ value: UInt64, _ scale: Double) -> UInt64 {
        let product = (Double(value) * scale).rounded()
        return product < Double(UInt64.max) ? UInt64(product) : .max
    }
}
