import Shared

/// What is said of an export — once written, or before (`export --summary`, the web app's
/// *Export all connections*): where it went, how many connections, its size, and — when the cap
/// cut it — that it holds only the most recent ones, and of how many.
package struct FlowExportSummary: Sendable, Equatable {
    /// When it is said, and so how exact the size is.
    package enum Stage: Sendable, Equatable {
        /// After writing: every figure is the file's.
        case written
        /// Before writing: the count and the truncation are the history's; the size is the
        /// document's to the byte unless `sizeEstimated` (`FlowExportEstimate` says when and how).
        case planned(sizeEstimated: Bool)
    }

    package let result: FlowExportResult
    /// The connections the history holds, when asked (a truncated export says "of N"); nil when
    /// it could not be counted.
    package let historyConnections: Int?
    package let limit: Int
    package let stage: Stage

    package init(_ result: FlowExportResult, historyConnections: Int?, limit: Int = FlowExport.defaultLimit,
                stage: Stage = .written) {
        self.result = result
        self.historyConnections = historyConnections
        self.limit = limit
        self.stage = stage
    }

    /// Whether `bytes` is an estimate, said "about" in words.
    var sizeEstimated: Bool { stage == .planned(sizeEstimated: true) }

    /// "exported 12 connections to PATH (3.4 KiB)" — before writing, "would export 20 000
    /// connections (about 9.6 MiB)" — then the truncation line when there is one.
    package var lines: [String] {
        let noun = result.connectionCount == 1 ? "connection" : "connections"
        let place = result.url.map { " to \($0.path)" } ?? ""
        let verb = stage == .written ? "exported" : "would export"
        let size = (sizeEstimated ? "about " : "") + ByteCountText.binary(result.byteCount)
        var lines = ["\(verb) \(Self.grouped(result.connectionCount)) \(noun)\(place) (\(size))"]
        if let requests = result.requestCount {
            let inspected = result.connectionCount == 1 ? "inspected connection" : "inspected connections"
            lines = ["\(verb) \(Self.grouped(requests)) request\(requests == 1 ? "" : "s") of \(Self.grouped(result.connectionCount)) "
                     + "\(inspected) as HAR\(place) (\(size))"]
        }
        if result.unreadableContent > 0 {
            lines.append("not in the file: the decrypted content of \(Self.grouped(result.unreadableContent)) inspected "
                         + "connection\(result.unreadableContent == 1 ? "" : "s") could not be read")
        }
        if let truncation { lines.append(truncation) }
        return lines
    }

    /// "truncated: the 20 000 most recent of 31 002"; nil when the export holds the whole history.
    package var truncation: String? {
        guard result.truncated else { return nil }
        let total = historyConnections.map { " of \(Self.grouped($0))" } ?? " (the history's total could not be counted)"
        return "truncated: the \(Self.grouped(limit)) most recent\(total)"
    }

    /// {"path", "connections", "bytes", "bytesEstimated", "truncated", "historyConnections"}
    package var json: String {
        var out = JSONWriter(capacity: 256)
        out.beginObject()
        out.string("path", result.url?.path)
        out.number("connections", result.connectionCount)
        out.size("bytes", result.byteCount)
        out.bool("bytesEstimated", sizeEstimated)
        out.bool("truncated", result.truncated)
        out.number("historyConnections", historyConnections)
        out.number("requests", result.requestCount)
        out.number("unreadableContent", result.unreadableContent)
        out.endObject()
        return String(decoding: out.writer.bytes, as: UTF8.self)
    }

    /// 20000 → "20 000": digits in threes, as the help and the screens write counts (the
    /// Inspector's rule).
    static func grouped(_ value: Int) -> String { FlowInspector.grouped(value) }
}
