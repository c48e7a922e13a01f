import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// What the kernel drops at the TUN device before the tunnel reads it — an unpaced UDP flood
/// overflowing the device's queue — is read from the device's own statistics and shown in
/// `stats`, the diagnostics and `run`'s summary, never silent. The oracle is `ip -s link` in the
/// device's namespace. Needs root.
@Suite("The TUN's queue drops, counted from the kernel", .serialized)
struct TUNQueueDropTests {
    typealias Tunnel = TunnelEndToEndTests.Tunnel

    /// The device's transmit counters as iproute2 reads them in `namespace`: (dropped, packets).
    static func oracle(_ device: String, in namespace: NetworkNamespace) throws -> (dropped: UInt64, packets: UInt64) {
        let shown = try namespace.ip(["-s", "-j", "link", "show", "dev", device]).standardOutput
        let links = try #require(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [[String: Any]])
        let transmit = try #require((links.first?["stats64"] as? [String: Any])?["tx"] as? [String: Any])
        return (try #require((transmit["dropped"] as? NSNumber)?.uint64Value), try #require((transmit["packets"] as? NSNumber)?.uint64Value))
    }

    /// A Python program that sends `count` 64-byte UDP datagrams to the lab's server as fast as it
    /// can, and prints how many the socket took.
    static func flood(count: Int) -> [String] {
        [LabScripts.python, "-c", """
        import socket
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.connect(('\(Lab.serverIPv4)', 9))
        payload, sent = b'x' * 64, 0
        for _ in range(\(count)):
            try:
                s.send(payload); sent += 1
            except OSError:
                pass
        print(sent)
        """]
    }

    /// Waits until the tunnel has read what the device queued: the kernel's count of datagrams
    /// read grows by no more than the namespace's own chatter (a couple a poll) for a few polls.
    /// Seen twice in full runs on two busy cores: the count never stood still for 250 ms in 30 s;
    /// the trail of what it did is kept for the failure's message.
    static func waitUntilDrained(_ device: String, in namespace: NetworkNamespace) async throws {
        var last: UInt64?
        var quiet = 0
        var trail: [String] = []
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let now = try oracle(device, in: namespace)
            if let last {
                let grown = now.packets >= last ? now.packets - last : 0
                quiet = grown <= 2 ? quiet + 1 : 0
                trail = (trail + ["+\(grown) (dropped \(now.dropped))"]).suffix(20)
            }
            if quiet >= 5 { return }
            last = now.packets
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the tunnel never finished reading the device; the last polls' reads: \(trail.joined(separator: ", "))")
    }

    @Test("the counts read from outside the device's namespace are ip -s link's inside it, drops and reads alike")
    func theCountsAreTheKernels() throws {
        let lab = try Lab()
        defer { lab.remove() }
        let device = try TUNDevice()
        defer { device.close() }
        try TunnelNamespacePlan.apply(device: device.name, namespace: lab.monitored.name)
        // Nobody reads the device: its queue (500) fills and the rest of the flood is dropped.
        let sent = try lab.monitored.run(Self.flood(count: 3_000))
        #expect(Int(sent.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) == 3_000)
        let full = try #require(try device.kernelCounters()?.get())
        let oracle = try Self.oracle(device.name, in: lab.monitored)
        #expect(full.queueDrops == oracle.dropped && full.datagramsRead == oracle.packets)
        #expect(full.queueDrops >= 2_000 && full.datagramsRead == 0)

        // Read 100 of what is queued: the kernel counts them as read, and ip says the same.
        let batch = PacketBatch(capacity: 64, datagramLimit: 1_600, arenaBytes: 64 * 1_600)
        var read = 0
        while read < 100, case .processed(let count) = device.read(into: batch) { read += count }
        let after = try #require(try device.kernelCounters()?.get())
        let oracleAfter = try Self.oracle(device.name, in: lab.monitored)
        #expect(after.datagramsRead == UInt64(read) && after.datagramsRead == oracleAfter.packets)
        #expect(after.queueDrops == full.queueDrops && after.queueDrops == oracleAfter.dropped)
    }

    @Test("a flood through the tunnel: stats --json and diagnostics --json give the kernel's drop count, non-zero, and the datagrams add up")
    func aFloodThroughTheTunnel() async throws {
        let lab = try Lab()
        defer { lab.remove() }
        let tunnel = try await Tunnel(lab: lab)
        let data = tunnel.data.url.path
        // Unpaced until the queue has overflowed at least once (one round almost always does).
        var sent = 0
        for _ in 0..<5 where try Self.oracle(tunnel.device.name, in: lab.monitored).dropped == 0 {
            let flood = try lab.monitored.run(Self.flood(count: 80_000))
            sent += Int(flood.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        try await Self.waitUntilDrained(tunnel.device.name, in: lab.monitored)
        let before = try Self.oracle(tunnel.device.name, in: lab.monitored)
        let stats = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["stats", "--json", "--data-dir", data])
        let diagnostics = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["diagnostics", "--json", "--data-dir", data])
        let after = try Self.oracle(tunnel.device.name, in: lab.monitored)
        await tunnel.stop()
        #expect(stats.status == 0, "\(stats.err)")

        let drops = try #require(UInt64(try PythonJSON.value(stats.out, "stats.shell.device.kernel.queueDrops")))
        let read = try #require(UInt64(try PythonJSON.value(stats.out, "stats.shell.device.kernel.datagramsRead")))
        #expect(drops > 0)
        #expect(drops == before.dropped && drops == after.dropped)
        #expect(read >= before.packets && read <= after.packets)
        // Every datagram the flood's socket took was either read or dropped at the queue; what
        // else was read is the namespace's own chatter (IPv6 router solicitations and the like).
        #expect(drops + read >= UInt64(sent))
        #expect(drops <= UInt64(sent) + 10)   // the chatter may lose a datagram or two to a full queue too
        let handled = try #require(UInt64(try PythonJSON.value(stats.out, "stats.pipeline.packetsHandled")))
        #expect(handled >= read - min(read, 10))

        #expect(diagnostics.status == 0, "\(diagnostics.err)")
        let screen = try #require(try JSONSerialization.jsonObject(with: Data(diagnostics.out.utf8)) as? [String: Any])
        let section = try #require((screen["sections"] as? [[String: Any]])?.first { $0["key"] as? String == "device" })
        let row = (section["rows"] as? [[String: Any]])?.first { $0["key"] as? String == "device.queueDrops" }
        #expect(row?["value"] as? String == "\(drops)")
        #expect((section["note"] as? String)?.hasPrefix("Lost: the kernel dropped \(drops) of the") == true)
    }

    @Test("run's summary says what the kernel dropped before the tunnel read it, in the text and the JSON")
    func theRunSummarySaysIt() throws {
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("run-flood")
        let data = work.url.appendingPathComponent("data")
        let summaryFile = work.url.appendingPathComponent("summary.json")
        let tunnelvision = try BuiltProduct.url("tunnelvision")
        // A few rounds of the flood in one command, so the queue overflows at least once.
        let flood = Self.flood(count: 80_000)
        let script = (0..<3).map { _ in flood.map { "'\($0.replacingOccurrences(of: "'", with: "'\\''"))'" }.joined(separator: " ") }
            .joined(separator: "; ")
        let result = try RunHonestSummaryTests.inHost(lab, [tunnelvision.path, "run", "--data-dir", data.path, "--no-capture",
                                                            "--json-summary", summaryFile.path, "--", "sh", "-c", script])
        #expect(result.status == 0, "\(result.err)")
        let sent = result.out.split(separator: "\n").compactMap { UInt64($0) }.reduce(0, +)
        let summary = try RunHonestSummaryTests.json(summaryFile)
        let drops = try #require((summary["deviceQueueDrops"] as? NSNumber)?.uint64Value)
        let read = try #require((summary["deviceDatagramsRead"] as? NSNumber)?.uint64Value)
        #expect(summary["deviceCountsProblem"] is NSNull)
        // The tunnel stops right after the command ends: what was still queued then (at most the
        // device's queue, 500) was neither read nor dropped.
        #expect(drops > 0 && drops <= sent + 10 && drops + read + 500 >= sent && drops + read <= sent + 100,
                "sent \(sent), dropped \(drops), read \(read)")
        #expect(result.err.contains("lost before the tunnel: the kernel dropped \(drops) of the \(drops + read) datagrams"))
    }
}
