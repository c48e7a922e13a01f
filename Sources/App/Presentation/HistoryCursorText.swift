import Shared

/// A page's end written down for a person to pass back (`--after`). In the default order (newest
/// first) it is the exact last-seen instant in nanoseconds and the flow id,
/// `1796004000123456789-42`, as it always was; in another order it starts with the order and holds
/// the value sorted by — `received:desc:i52000-42`, `host:asc:t6578616d706c652e636f6d-42` (text
/// and address bytes in hex) — so a cursor is never read in an order it was not made in.
package enum HistoryCursorText {
    package static func text(_ cursor: FlowCursor, order: FlowOrder = .newestFirst) -> String {
        if order == .newestFirst, case .integer(let instant) = cursor.value { return "\(instant)-\(cursor.id)" }
        return "\(HistorySort.word(order)):\(value(cursor.value))-\(cursor.id)"
    }

    /// The order and position `text(_:order:)` wrote; nil when `text` is not one it writes.
    package static func parse(_ text: String) -> (order: FlowOrder, cursor: FlowCursor)? {
        guard let dash = text.lastIndex(of: "-"), let id = Int64(text[text.index(after: dash)...]), id > 0 else { return nil }
        let head = text[..<dash]
        let parts = head.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 1 {
            guard let instant = Int64(head), instant >= 0 else { return nil }
            return (.newestFirst, FlowCursor(lastSeenNanoseconds: instant, id: id))
        }
        guard parts.count == 3, let order = HistorySort.parse("\(parts[0]):\(parts[1])"), let value = value(parts[2]) else { return nil }
        return (order, FlowCursor(value: value, id: id))
    }

    private static func value(_ value: FlowSortValue) -> String {
        switch value {
        case .integer(let number): "i\(number)"
        case .text(let text): "t" + hex(Array(text.utf8))
        case .blob(let bytes): "x" + hex(bytes)
        }
    }

    private static func value(_ text: Substring) -> FlowSortValue? {
        guard let kind = text.first else { return nil }
        let rest = text.dropFirst()
        switch kind {
        case "i": return Int64(rest).map(FlowSortValue.integer)
        case "t": return bytes(rest).flatMap { String(validating: $0, as: UTF8.self) }.map(FlowSortValue.text)
        case "x": return bytes(rest).map(FlowSortValue.blob)
        default: return nil
        }
    }

    private static func hex(_ bytes: [UInt8]) -> String { PacketBytesPresentation.hex(bytes) }

    private static let digits = Array("0123456789abcdef")

    private static func bytes(_ text: Substring) -> [UInt8]? {
        let characters = Array(text.lowercased())
        guard characters.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: characters.count, by: 2) {
            guard let high = digits.firstIndex(of: characters[index]), let low = digits.firstIndex(of: characters[index + 1]) else { return nil }
            bytes.append(UInt8(high << 4 | low))
        }
        return bytes
    }
}
