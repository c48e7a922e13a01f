import Foundation
import Shared

/// The activity axis as `tunnelvision activity` draws it: one row per bar (its start, a bar of
/// block characters scaled to the busiest, the count), the bar width and the total — every
/// connection's packets, whatever any list's filter.
package struct ActivityChart: Sendable {
    package let axis: ActivityAxis
    /// The stretch asked for (`--from`/`--to`); nil for the whole history.
    package let requested: ClosedRange<Date>?
    /// Columns of the longest bar.
    package let width: Int
    /// The most bars an axis may have: what decides whether a bar can be entered.
    package let maxBars: Int
    /// Whose days the axis's clock counts (`clock(now:)`).
    package let zone: TimeZone

    package init(axis: ActivityAxis, requested: ClosedRange<Date>?, width: Int = 40,
                maxBars: Int = HistoryPolicy.default.axisBars, zone: TimeZone = .current) {
        self.axis = axis
        self.requested = requested
        self.width = max(1, width)
        self.maxBars = maxBars
        self.zone = zone
    }

    /// How a screen writes the axis's instants — its caption, a bar's spoken interval, a sweep's
    /// note: with the date when the drawn span crosses a day or is not today (`StretchClock`).
    /// Every stretch picked on the axis lies inside its span, so one clock serves them all.
    package func clock(now: Date) -> StretchClock {
        axis.span.map { StretchClock.of($0, now: now, zone: zone) } ?? .time
    }

    /// Eighths of a block, so a bar's length reads to an eighth of a column.
    static let eighths: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// The bar for `count`: full blocks and an eighth, never empty for a count above zero.
    func bar(_ count: Int) -> String {
        guard count > 0, axis.busiest > 0 else { return "" }
        let units = max(1, Int((Double(count) / Double(axis.busiest) * Double(width * 8)).rounded()))
        return String(repeating: "█", count: units / 8) + (units % 8 == 0 ? "" : String(Self.eighths[units % 8 - 1]))
    }

    /// `1 s`, `15 min`, `6 h`, `1 day`, `8 days`, `1 week`.
    package static func widthName(_ seconds: TimeInterval) -> String {
        let whole = Int(seconds.rounded())
        if whole == 604_800 { return "1 week" }
        if whole % 86_400 == 0 { return whole == 86_400 ? "1 day" : "\(whole / 86_400) days" }
        if whole % 3_600 == 0 { return "\(whole / 3_600) h" }
        if whole % 60 == 0 { return "\(whole / 60) min" }
        return "\(whole) s"
    }

    package func text() -> String {
        guard let span = axis.span, let bucket = axis.bucketDuration else {
            return "no packets recorded yet: 'sudo tunnelvision run -- CMD' records every packet CMD sends and receives"
        }
        var lines = ["activity of all connections, whatever the filter: \(axis.bars.count) bars of \(Self.widthName(bucket)), "
                     + "\(HistoryFlowWording.time(span.lowerBound)) to \(HistoryFlowWording.time(span.upperBound)) UTC"]
        let countWidth = "\(axis.busiest)".count
        for bar in axis.bars {
            let count = "\(bar.packetCount)"
            lines.append("\(HistoryFlowWording.time(bar.start))  \(String(repeating: " ", count: countWidth - count.count))\(count)  \(self.bar(bar.packetCount))")
        }
        lines.append("\(axis.totalPackets) packets in all, busiest bar \(axis.busiest)")
        if axis.totalPackets == 0 {
            lines.append("nothing is stored in this stretch (retention may have removed it); "
                         + "'tunnelvision activity' without --from/--to shows the whole history")
        }
        return lines.joined(separator: "\n")
    }

    /// The axis as `activity --json` prints it; `clock` (`time` or `date`) as of `now` (`clock(now:)`).
    package func json(now: Date) -> String {
        var out = JSONWriter()
        out.beginObject()
        out.string("clock", clock(now: now).rawValue)
        if let bucket = axis.bucketDuration { out.number("bucketSeconds", Int(bucket.rounded())) } else { out.number("bucketSeconds", nil) }
        if let span = axis.span {
            out.beginObject("span")
            HistoryFlowWording.write("from", span.lowerBound, to: &out)
            HistoryFlowWording.write("to", span.upperBound, to: &out)
            out.endObject()
        } else {
            out.key("span")
            out.null()
        }
        out.beginArray("bars")
        for bar in axis.bars {
            out.beginObject()
            HistoryFlowWording.write("start", bar.start, to: &out)
            out.number("seconds", Int(bar.duration.rounded()))
            out.number("packets", bar.packetCount)
            // A page offers a tap's zoom only where the command's own rule allows it.
            out.bool("canZoom", TimelineActivity.canZoom(into: bar, maxBars: maxBars))
            out.endObject()
        }
        out.endArray()
        out.number("totalPackets", axis.totalPackets)
        out.number("busiest", axis.busiest)
        out.bool("ignoresFilters", true)
        out.endObject()
        return out.writer.string
    }
}
