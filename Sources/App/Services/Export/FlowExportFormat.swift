import Shared

/// What an export is written as: the JSON document of every connection's metadata (seeds/000 §
/// Flow export), the same as CSV (RFC 4180) for a spreadsheet, or the requests and responses of
/// inspected connections as HAR 1.2, which browsers' and proxies' tools open.
package enum FlowExportFormat: String, Sendable, Equatable, CaseIterable {
    case json, csv, har

    /// Its name in a directory of exports.
    package var fileName: String { "connections.\(rawValue)" }

    /// The file's first bytes, by which an earlier export is told from a stranger's file.
    package var signature: String {
        switch self {
        case .json: FlowExport.signature
        case .csv: FlowExportCSV.header
        case .har: HARExport.signature
        }
    }

    /// Whether `prefix` — the first bytes of a file — begin an export of ours, in any format.
    package static func isExport(prefix: some Collection<UInt8>) -> Bool {
        allCases.contains { prefix.starts(with: $0.signature.utf8) }
    }

    /// How much of a file is read to tell an export from a stranger.
    static let signatureLength = allCases.map { $0.signature.utf8.count }.max() ?? 0
}
