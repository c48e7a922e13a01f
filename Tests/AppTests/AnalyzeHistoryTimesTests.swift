import Foundation
import TestSupport
import Testing

/// `analyze --data-dir` writes a capture's conversations into a history that the timeline reads:
/// their times must be the capture's own, and its packets must count on the activity axis.
@Suite(.serialized) struct AnalyzeHistoryTimesTests {
    /// A TCP conversation and a UDP exchange over four seconds of November 2025, written by scapy
    /// (Ethernet frames, microsecond stamps), so nothing of ours makes the file.
    static let captureScript = """
        import sys
        from scapy.all import Ether, IP, TCP, UDP, Raw, wrpcap
        base = 1764000000.25
        client, server = "198.18.0.1", "198.18.0.2"
        frames = [
            (0.0, IP(src=client, dst=server) / TCP(sport=40000, dport=80, flags="S", seq=1)),
            (0.5, IP(src=server, dst=client) / TCP(sport=80, dport=40000, flags="SA", seq=9, ack=2)),
            (1.2, IP(src=client, dst=server) / TCP(sport=40000, dport=80, flags="A", seq=2, ack=10)),
            (1.3, IP(src=client, dst=server) / TCP(sport=40000, dport=80, flags="PA", seq=2, ack=10) / Raw(b"GET / HTTP/1.1\\r\\nHost: t\\r\\n\\r\\n")),
            (2.7, IP(src=server, dst=client) / TCP(sport=80, dport=40000, flags="A", seq=10, ack=30)),
            (3.1, IP(src=client, dst=server) / UDP(sport=50000, dport=5000) / Raw(b"ping")),
            (3.4, IP(src=server, dst=client) / UDP(sport=5000, dport=50000) / Raw(b"pong")),
        ]
        packets = []
        for offset, packet in frames:
            frame = Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02") / packet
            frame.time = base + offset
            packets.append(frame)
        wrpcap(sys.argv[1], packets)
        """

    static func tunnelvision(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), arguments)
    }

    static func date(_ text: Any?) throws -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return try #require((text as? String).flatMap { formatter.date(from: $0) }, "not a UTC time: \(String(describing: text))")
    }

    @Test("a capture analyzed into a history keeps the capture's own times, and its packets count on the activity axis")
    func capturesTimesAndPacketsReachTheHistory() throws {
        let folder = TemporaryDirectory("tv-analyze-times")
        let capture = folder.url.appendingPathComponent("known-times.pcap")
        let written = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", Self.captureScript, capture.path])
        try #require(written.status == 0, "scapy did not write the capture: \(written.err)")
        // The capture's times as tshark reads them, by conversation (its stream index per protocol).
        let frames = try Tshark.fields(["frame.time_epoch", "tcp.stream", "udp.stream"], of: capture)
        let times = frames.compactMap { $0["frame.time_epoch"]?.first.flatMap(Double.init) }
        try #require(times.count == 7, "tshark read \(frames)")
        let tcpTimes = zip(frames, times).filter { $0.0["tcp.stream"] != nil }.map(\.1)
        let udpTimes = zip(frames, times).filter { $0.0["udp.stream"] != nil }.map(\.1)

        let history = folder.url.appendingPathComponent("history")
        let analyzed = try Self.tunnelvision(["analyze", capture.path, "--data-dir", history.path])
        try #require(analyzed.status == 0, "analyze failed: \(analyzed.err)")

        let listing = try Self.tunnelvision(["flows", "--json", "--data-dir", history.path])
        try #require(listing.status == 0, "flows failed: \(listing.err)")
        let page = try #require(try JSONSerialization.jsonObject(with: Data(listing.out.utf8)) as? [String: Any])
        let flows = try #require(page["flows"] as? [[String: Any]])
        #expect(flows.count == 2)
        for (proto, expected) in [("tcp", tcpTimes), ("udp", udpTimes)] {
            let flow = try #require(flows.first { $0["protocol"] as? String == proto }, "no \(proto) flow in \(listing.out)")
            let first = try Self.date(flow["firstSeen"]).timeIntervalSince1970
            let last = try Self.date(flow["lastSeen"]).timeIntervalSince1970
            #expect(abs(first - expected.min()!) < 1e-5, "\(proto) firstSeen \(flow["firstSeen"] ?? "") is not tshark's \(expected.min()!)")
            #expect(abs(last - expected.max()!) < 1e-5, "\(proto) lastSeen \(flow["lastSeen"] ?? "") is not tshark's \(expected.max()!)")
        }

        let axis = try Self.tunnelvision(["activity", "--json", "--data-dir", history.path])
        try #require(axis.status == 0, "activity failed: \(axis.err)")
        let activity = try #require(try JSONSerialization.jsonObject(with: Data(axis.out.utf8)) as? [String: Any])
        #expect(activity["totalPackets"] as? Int == times.count, "activity: \(axis.out)")
        let span = try #require(activity["span"] as? [String: Any], "no span: \(axis.out)")
        #expect(try Self.date(span["from"]).timeIntervalSince1970 == times.min()!.rounded(.down))
        #expect(try Self.date(span["to"]).timeIntervalSince1970 == times.max()!.rounded(.down) + 1)
        // Each bar holds the capture's packets of its stretch, as tshark dates them.
        let bars = try #require(activity["bars"] as? [[String: Any]])
        for bar in bars {
            let start = try Self.date(bar["start"]).timeIntervalSince1970
            let end = start + Double(try #require(bar["seconds"] as? Int))
            let inside = times.filter { $0 >= start && $0 < end }.count
            #expect(bar["packets"] as? Int == inside, "the bar at \(bar["start"] ?? "") counts \(bar["packets"] ?? "") packets, tshark \(inside)")
        }
        #expect(bars.compactMap { $0["packets"] as? Int }.reduce(0, +) == times.count)
    }
}
