import Foundation
import Shared

/// The terminal dashboard's frame, from a snapshot to the lines drawn: pure, so every decision of
/// the screen (what is said, in which state, how much fits) is tested without a terminal.
package struct LiveDashboard: Sendable {
    package let snapshot: LiveFeedSnapshot
    package let names: LiveDashboardNames
    /// The data directory as the person named it.
    package let directory: String

    package init(snapshot: LiveFeedSnapshot, names: LiveDashboardNames, directory: String) {
        self.snapshot = snapshot
        self.names = names
        self.directory = directory
    }

    package var state: LiveDashboardState { LiveDashboardState(snapshot) }

    /// The last whole interval: the one being filled is still partial and would always read low.
    var currentRate: ThroughputSample? {
        snapshot.throughput.count >= 2 ? snapshot.throughput[snapshot.throughput.count - 2] : nil
    }

    /// "received 1.2 MiB/s, sent 40.0 KiB/s" (house binary units, as the run summary's).
    package var ratesLine: String {
        let sample = currentRate
        return "received \(Self.rate(sample?.bytesInPerSecond ?? 0)), sent \(Self.rate(sample?.bytesOutPerSecond ?? 0))"
    }

    /// This session's counters, and — only when the tunnel shed records — how many.
    package var countersLine: String {
        let connections = snapshot.connectionsReachedCap
            ? "at least \(snapshot.connectionsSeen) connections" : Self.counted(snapshot.connectionsSeen, "connection")
        var line = "this session: \(ByteCountText.binary(snapshot.bytesIn)) received, \(ByteCountText.binary(snapshot.bytesOut)) sent, "
            + "\(Self.counted(Int(clamping: snapshot.packetCount), "packet")), \(connections)"
        if snapshot.droppedRecords > 0 {
            line += " · \(snapshot.droppedRecords) not shown (the tunnel was busier than this screen)"
        }
        return line
    }

    /// What the shed records mean for the counters, in the Dashboard's words; nil when none were
    /// shed. The counters are added up from the records the screen was handed, so they leave the
    /// shed ones out; the history and the captures are written apart from the feed and hold them.
    package var droppedNote: String? {
        guard snapshot.droppedRecords > 0 else { return nil }
        let records = snapshot.droppedRecords == 1 ? "1 packet's record was" : "\(snapshot.droppedRecords) packets' records were"
        return "\(records) not handed to this screen while the tunnel was busy: the traffic itself was not affected and the "
            + "history and captures hold those packets, but the counters above leave them out"
    }

    /// The newest packet of each of the last `limit` connections, newest first.
    func recentConnections(limit: Int) -> [LivePacket] {
        snapshot.recentConnections(limit: limit)
    }

    /// Every line of the screen for a terminal of `layout`'s size, each at most `columns` wide.
    package func frame(_ layout: LiveDashboardLayout) -> [String] {
        var lines = ["TunnelVision · " + state.headline(directory: directory), ratesLine]
        if layout.isCompact {
            lines += [countersLine, "q quits (a larger terminal shows the charts)"]
            return lines.map { Self.fitted($0, layout.columns) }
        }
        lines.append("")
        let shown = snapshot.throughput.suffix(layout.chartWidth)
        lines += chart("received", shown.map(\.bytesIn), height: layout.chartHeight)
        lines += chart("sent", shown.map(\.bytesOut), height: layout.chartHeight)
        lines += [countersLine, "", "busiest hosts, last minute"]
        lines += padded(talkerLines(limit: layout.talkerRows), to: layout.talkerRows)
        lines += ["", "recent connections"]
        lines += padded(recentLines(limit: layout.recentRows), to: layout.recentRows)
        lines.append("q quits")
        return lines.map { Self.fitted($0, layout.columns) }
    }

    private func chart(_ label: String, _ values: [UInt64], height: Int) -> [String] {
        let peak = values.max() ?? 0
        return LiveDashboardChart.rows(values, height: height).enumerated().map { row, bars in
            let name = row == 0 ? label : (row == height - 1 && height > 1 ? Self.rate(Double(peak)) : "")
            return name.padding(toLength: LiveDashboardLayout.chartLabelWidth - 1, withPad: " ", startingAt: 0)
                + "│" + bars
        }
    }

    /// The busiest remote hosts of the last minute, busiest first, each with the name the history
    /// gave it and the connection its row opens. What the screen's list and the JSON line's
    /// `topTalkers` show.
    package func talkers(limit: Int) -> [LiveDashboardTalker] {
        snapshot.topTalkers.prefix(limit).map { LiveDashboardTalker($0, names: names) }
    }

    private func talkerLines(limit: Int) -> [String] {
        let named = talkers(limit: limit)
        let talkers = named.map(\.talker)
        guard !talkers.isEmpty else { return limit > 0 ? ["  (nothing moved in the last minute)"] : [] }
        let hosts = named.map { $0.name ?? "\($0.talker.remote)" }
        let width = min(40, hosts.map(\.count).max() ?? 0)
        return zip(hosts, talkers).map { host, talker in
            "  " + host.padding(toLength: width, withPad: " ", startingAt: 0)
                + "  \(ByteCountText.binary(talker.bytesIn)) received, \(ByteCountText.binary(talker.bytesOut)) sent"
        }
    }

    private func recentLines(limit: Int) -> [String] {
        let packets = recentConnections(limit: limit)
        guard !packets.isEmpty else { return limit > 0 ? ["  (no connections yet this session)"] : [] }
        return packets.map { packet in
            let time = Self.clockTime(packet.date)
            let proto = packet.flowKey.proto.displayName
            guard let endpoints = packet.endpoints else {
                return "  \(time)  \(proto)  \(packet.flowKey.endpointA) ↔ \(packet.flowKey.endpointB)"
            }
            let host = names.name(of: packet.flowKey) ?? "\(endpoints.remote.address)"
            return "  \(time)  \(proto)  \(host) port \(endpoints.remote.port)"
        }
    }

    private func padded(_ lines: [String], to count: Int) -> [String] {
        Array((lines + Array(repeating: "", count: max(0, count - lines.count))).prefix(count))
    }

    static func rate(_ bytesPerSecond: Double) -> String {
        ByteCountText.binary(UInt64(max(0, bytesPerSecond.rounded()))) + "/s"
    }

    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// "15:04:05" in UTC, as every time the product prints.
    static func clockTime(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let day = ((seconds % 86_400) + 86_400) % 86_400
        return String(format: "%02lld:%02lld:%02lld", day / 3600, day / 60 % 60, day % 60)
    }

    static func fitted(_ line: String, _ columns: Int) -> String {
        line.count <= columns ? line : String(line.prefix(max(0, columns - 1))) + "…"
    }
}
