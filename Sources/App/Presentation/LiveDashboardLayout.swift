/// How the dashboard's parts share a terminal of `columns` × `rows`. The fixed lines are the
/// headline, the rates, the session counters, the two headings, the footer and three blank
/// separators (nine); what remains goes first to the two charts (up to eight rows each), then to the
/// busiest hosts (up to ten), then to the recent connections.
package struct LiveDashboardLayout: Sendable, Equatable {
    package let columns: Int
    package let rows: Int
    /// Too small for charts and lists: headline, rates, counters and the footer only.
    package let isCompact: Bool
    package let chartHeight: Int
    /// One column per sample, the newest on the right; never stretched.
    package let chartWidth: Int
    package let talkerRows: Int
    package let recentRows: Int

    static let minimumColumns = 40
    static let minimumRows = 14
    /// "received    │" or "999.9 KiB/s │" before each chart.
    static let chartLabelWidth = 13
    static let fixedRows = 9
    static let maximumChartHeight = 8
    static let maximumTalkerRows = 10

    package init(columns: Int, rows: Int, samples: Int) {
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
        isCompact = columns < Self.minimumColumns || rows < Self.minimumRows
        chartWidth = isCompact ? 0 : min(samples, columns - Self.chartLabelWidth)
        guard !isCompact else {
            (chartHeight, talkerRows, recentRows) = (0, 0, 0)
            return
        }
        let free = rows - Self.fixedRows
        chartHeight = min(Self.maximumChartHeight, max(1, free / 4))
        let lists = free - 2 * chartHeight
        talkerRows = min(Self.maximumTalkerRows, (lists + 1) / 2)
        recentRows = lists - talkerRows
    }
}
