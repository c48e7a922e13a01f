import Foundation

/// The live feed's question for one second (`tunnelvision live` off a terminal, `/api/live`):
/// the line for the reader's snapshot at that instant.
package enum LiveQuestion {
    /// What `live` prints for `snapshot` at `now` (`--json`: one JSON object), without its newline.
    /// `directory` is the data directory's path, which the dashboard names; the connections are
    /// named (and given their history rows) as far as the reader's snapshot knows them.
    package static func line(_ snapshot: LiveFeedSnapshot, directory: String, at now: Date, json: Bool = true) -> String {
        let dashboard = LiveDashboard(snapshot: snapshot, names: snapshot.names, directory: directory)
        return json ? LiveDashboardLine.json(dashboard, at: now) : LiveDashboardLine.text(dashboard, at: now)
    }
}
