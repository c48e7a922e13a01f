import Fixtures
import Foundation
import Shared
import Testing
import TestSupport

/// `tunnelvision flow` run as a person would, over a history and captures written by the real
/// store and writer; its JSON read by Python's `json`, its bytes and exports checked by tshark.
@Suite(.serialized) struct FlowCommandTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), arguments)
    }

    /// Runs `script` with Python 3; its standard output.
    static func python(_ script: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script] + arguments)
    }

    /// A history with a TCP connection (7 packets), a DNS exchange (2) and an uncaptured connection.
    static func history() async throws -> (InspectorHistory, tcp: Int64, dns: Int64, uncaptured: Int64) {
        let history = try InspectorHistory()
        let tcp = try await history.record(InspectorHistory.tcpKey, try InspectorHistory.tcpConversation(), sni: "example.test")
        let dns = try await history.record(InspectorHistory.dnsKey, try InspectorHistory.dns([
            DNSMessageFixture.query(for: "gone.example.test"),
            DNSMessageFixture.reply(to: "gone.example.test", responseCode: .nameError, answers: []),
        ]), status: .plaintext)
        let other = FlowKey(proto: .tcp, source: IPEndpoint(address: TunnelAddressing.ipv4Address, port: 40_001),
                            destination: InspectorHistory.server)
        let uncaptured = try await history.record(other, try InspectorHistory.tcpConversation().prefix(2).map {
            var packet = $0
            packet.captured = false
            return packet
        })
        try await history.close()
        return (history, tcp, dns, uncaptured)
    }

    /// For each packet number: the command's "bytes" against tshark's frame_raw of the record the
    /// command says holds it (matched by the record's file offset). Prints "same N" or the mismatch.
    static let compareBytes = #"""
    import json, subprocess, sys, glob
    binary, data, flow, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    frames = {}
    for n in range(1, count + 1):
        out = subprocess.run([binary, "flow", flow, "--packet", str(n), "--json", "--data-dir", data],
                             capture_output=True, text=True)
        detail = json.loads(out.stdout)
        cap = detail["capture"]
        path = glob.glob(f"{data}/captures/tunnelvision-{cap['file']:06d}-*.pcap")[0]
        if path not in frames:
            dump = subprocess.run(["tshark", "-r", path, "-o", "frame.show_file_off:TRUE", "-T", "json", "-x"],
                                  capture_output=True, text=True)
            frames[path] = {int(p["_source"]["layers"]["frame"]["frame.file_off"]): p["_source"]["layers"]["frame_raw"][0]
                            for p in json.loads(dump.stdout)}
        raw = frames[path].get(cap["offset"]) or frames[path].get(cap["offset"] + 16)
        print(("same" if raw == detail["bytes"] and raw else "differ") + f" {n} {detail['title']} {len(detail['headers'])}")
    """#

    @Test("packet bytes from 'flow ID --packet N --json' equal tshark's bytes for the same record")
    func bytesMatchTshark() async throws {
        let (history, tcp, _, _) = try await Self.history()
        let result = try Self.python(Self.compareBytes, [try BuiltProduct.url("tunnelvision").path, history.dataDirectory.path,
                                                         "\(tcp)", "7"])
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 7)
        #expect(lines.allSatisfy { $0.hasPrefix("same ") }, "\(lines)")
        #expect(lines.first?.contains("opened") == true && lines.last?.contains("cut off") == true)
    }

    @Test("the inspector in text and JSON: its facts, titled packets, and the name with its source")
    func inspector() async throws {
        let (history, tcp, dns, _) = try await Self.history()
        let data = history.dataDirectory.path
        let text = try Self.run(["flow", "\(tcp)", "--data-dir", data])
        #expect(text.status == 0, "\(text.err)")
        for phrase in ["Connection \(tcp): example.test", "this device 198.18.0.2 port 40000 and 198.18.0.1 port 443",
                       "First to last packet", "Received", "Sent", "encrypted, not inspected", "accepted", "SYN ACK",
                       "cut off", "RST ACK", "0.004 s", "finished sending", "delivery confirmed"] {
            #expect(text.out.contains(phrase), "missing \(phrase)")
        }
        let json = try Self.run(["flow", "\(tcp)", "--data-dir", data, "--json", "--packets", "3"])
        let document = history.temporary.url.appendingPathComponent("flow.json")
        try Data(json.out.utf8).write(to: document)
        let read = try Self.python("""
            import json, sys
            d = json.load(open(sys.argv[1]))
            print(d["name"], d["nameSource"], d["local"], d["storedPackets"], d["shownPackets"], d["footer"],
                  ",".join(p["title"] for p in d["packets"]), d["packets"][1]["seconds"], d["firstPacket"])
            """, [document.path])
        #expect(read.out.hasPrefix("example.test sni 198.18.0.2:40000 7 3 showing the first 3 of 7 packets opened,accepted,delivery confirmed 0.004 2026-"),
                "\(read.out) \(read.err)")
        // The Community ID is pycommunityid's for the same tuple, in the JSON and in the text.
        let communityID = try CommunityIDOracle.id(.init(proto: 6, source: "198.18.0.2", destination: "198.18.0.1", ports: (40_000, 443)))
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(decoded["communityID"] as? String == communityID)
        #expect(text.out.contains("Community ID          \(communityID)\n"))
        let dnsDetail = try Self.run(["flow", "\(dns)", "--packet", "2", "--data-dir", data])
        #expect(dnsDetail.status == 0 && dnsDetail.out.contains("no such name (NXDOMAIN)") && dnsDetail.out.contains("gone.example.test"))
    }

    @Test("the per-flow capture holds exactly that flow's packets, with pcapng comments and directions tshark reads")
    func export() async throws {
        let (history, tcp, _, _) = try await Self.history()
        let data = history.dataDirectory.path
        let pcapng = history.temporary.url.appendingPathComponent("flow.pcapng")
        let written = try Self.run(["flow", "\(tcp)", "--pcapng", pcapng.path, "--data-dir", data, "--json"])
        #expect(written.status == 0, "\(written.err)")
        let frames = try Tshark.fields(["frame.comment", "frame.packet_flags_direction", "tcp.srcport"], of: pcapng)
        #expect(frames.count == 7)
        #expect(frames.allSatisfy { ($0["frame.comment"]?.first ?? "").hasPrefix("flow=\(tcp) direction=") })
        let directions = frames.map { $0["frame.packet_flags_direction"]?.first.flatMap { UInt32($0.replacingOccurrences(of: "0x", with: ""), radix: 16) } }
        #expect(directions == [2, 1, 2, 2, 1, 2, 1])
        #expect(frames.map { $0["frame.comment"]?.first?.hasSuffix(" direction=sent") == true } == directions.map { $0 == 2 })
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: pcapng.path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)

        let pcap = history.temporary.url.appendingPathComponent("flow.pcap")
        #expect(try Self.run(["flow", "\(tcp)", "--pcap", pcap.path, "--data-dir", data]).status == 0)
        let classic = try Tshark.fields(["tcp.srcport", "frame.len"], of: pcap)
        #expect(classic.count == 7 && classic.allSatisfy { ["40000", "443"].contains($0["tcp.srcport"]?.first ?? "") })

        // An existing file is kept unless --force; then replaced.
        let before = try Data(contentsOf: pcap)
        let refused = try Self.run(["flow", "\(tcp)", "--pcap", pcap.path, "--data-dir", data])
        #expect(refused.status == 1 && refused.err.contains("--force"))
        #expect(try Data(contentsOf: pcap) == before)
        try Data("x".utf8).write(to: pcap)
        #expect(try Self.run(["flow", "\(tcp)", "--pcap", pcap.path, "--force", "--data-dir", data]).status == 0)
        #expect(try Data(contentsOf: pcap) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: history.temporary.url.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test("unknown id, packet out of range, deleted capture, uncaptured packet, no history: a clear message, exit 1, nothing written")
    func failures() async throws {
        let (history, tcp, _, uncaptured) = try await Self.history()
        let data = history.dataDirectory.path
        let unknown = try Self.run(["flow", "999", "--data-dir", data])
        #expect(unknown.status == 1 && unknown.err.contains("no connection 999 in the history"))
        let range = try Self.run(["flow", "\(tcp)", "--packet", "8", "--data-dir", data])
        #expect(range.status == 1 && range.err.contains("from 1 to 7"))
        let never = try Self.run(["flow", "\(uncaptured)", "--packet", "1", "--data-dir", data, "--json"])
        #expect(never.status == 1 && never.err.contains("capture was off"))
        let exportNothing = history.temporary.url.appendingPathComponent("none.pcap")
        let nothing = try Self.run(["flow", "\(uncaptured)", "--pcap", exportNothing.path, "--data-dir", data])
        #expect(nothing.status == 1 && nothing.err.contains("2 never captured") && !FileManager.default.fileExists(atPath: exportNothing.path))
        for file in try FileManager.default.contentsOfDirectory(at: history.captures, includingPropertiesForKeys: nil) {
            try FileManager.default.removeItem(at: file)
        }
        let deleted = try Self.run(["flow", "\(tcp)", "--packet", "1", "--data-dir", data])
        #expect(deleted.status == 1 && deleted.err.contains("the connection stays in the history, the bytes are gone"))
        #expect(deleted.out.contains("opened"))
        let gone = history.temporary.url.appendingPathComponent("gone.pcapng")
        let goneExport = try Self.run(["flow", "\(tcp)", "--pcapng", gone.path, "--data-dir", data])
        #expect(goneExport.status == 1 && goneExport.err.contains("7 whose capture was deleted"))
        #expect(!FileManager.default.fileExists(atPath: gone.path))
        let missing = try Self.run(["flow", "1", "--data-dir", history.temporary.url.appendingPathComponent("nowhere").path])
        #expect(missing.status == 1 && missing.err.contains("no history"))
        #expect(try Self.run(["flow"]).status == 2)
        #expect(try Self.run(["flow", "x1"]).status == 2)
        #expect(try Self.run(["flow", "1", "--packet", "0"]).status == 2)
        #expect(try Self.run(["flow", "1", "--pcap", "a", "--pcapng", "b"]).status == 2)
        #expect(try Self.run(["flow", "1", "--force"]).status == 2)
        let help = try Self.run(["help", "flow"])
        #expect(help.status == 0 && help.out.contains("--pcapng FILE"))
    }
}
