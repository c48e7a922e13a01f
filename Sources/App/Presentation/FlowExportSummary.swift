import Shared

/// What is said of an export once written: where it went, how many connections, its size, and —
/// when the cap cut it — that it holds only the most recent ones, and of how many.
public struct FlowExportSummary: Sendable, Equatable {
    public let result: FlowExportResult
    /// The connections the history holds, when asked (a truncated export says "of N"); nil when
    /// it could not be counted.
    public let historyConnections: Int?
    public let limit: Int

    public init(_ result: FlowExportResult, historyConnections: Int?, limit: Int = FlowExport.defaultLimit) {
        self.result = result
        self.historyConnections = historyConnections
        self.limit = limit
    }

    /// "exported 12 connections to PATH (3.4 KiB)", then the truncation line when there is one.
    public var lines: [String] {
        let noun = result.connectionCount == 1 ? "connection" : "connections"
        let place = result.url.map { " to \($0.path)" } ?? ""
        var lines = ["exported \(Self.grouped(result.connectionCount)) \(noun)\(place) (\(RunSummary.bytes(result.byteCount)))"]
        if let truncation { lines.append(truncation) }
        return lines
    }

    /// "truncated: the 20 000 most recent of 31 002"; nil when the export holds the whole history.
    public var truncation: String? {
        guard result.truncated else { return nil }
        let total = historyConnections.map { " of \(Self.grouped($0))" } ?? " (the history's total could not be counted)"
        return "truncated: the \(Self.grouped(limit)) most recent\(total)"
    }

    /// {"path", "connections", "bytes", "truncated", "historyConnections"}
    public var json: String {
        var out = JSONWriter(capacity: 256)
        out.beginObject()
        out.string("path", result.url?.path)
        out.number("connections", result.connectionCount)
        out.number("bytes", result.byteCount)
        out.bool("truncated", result.truncated)
        out.number("historyConnections", historyConnections)
        out.endObject()
        return String(decoding: out.writer.bytes, as: UTF8.self)
    }

    /// 20000 → "20 000": digits in threes, as the help and the screens write counts.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(" ") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }
}
