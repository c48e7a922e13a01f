import Shared

/// A page's end written down for a person to pass back (`--after`): the exact last-seen instant in
/// nanoseconds and the flow id, `1796004000123456789-42`.
public enum HistoryCursorText {
    public static func text(_ cursor: FlowCursor) -> String {
        "\(cursor.lastSeenNanoseconds)-\(cursor.id)"
    }

    /// nil when `text` is not one `text(_:)` writes.
    public static func parse(_ text: String) -> FlowCursor? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let instant = Int64(parts[0]), let id = Int64(parts[1]), instant >= 0, id > 0 else { return nil }
        return FlowCursor(lastSeenNanoseconds: instant, id: id)
    }
}
