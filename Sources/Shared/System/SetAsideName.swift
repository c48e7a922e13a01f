import Foundation

/// Where a file the person should keep but not use goes: beside it, named for why and when
/// (`settings.json.unreadable-20261201T123500Z`), so nothing is lost and the original name is free
/// for a fresh start. Compact UTC stamp: no colons, which scp and Windows shares misread.
package enum SetAsideName {
    package static func path(for path: String, why: String, at date: Date) -> String {
        "\(path).\(why)-" + UTCTimestamp.iso8601(date).filter { $0 != "-" && $0 != ":" }
    }
}
