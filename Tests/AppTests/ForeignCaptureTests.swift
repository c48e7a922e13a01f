import Foundation
import TestSupport
import Testing

/// `packets --json` and `analyze --json` over captures other tools wrote, in every format and
/// link type read, checked record by record against what tshark reads in the same files.
@Suite(.serialized) struct ForeignCaptureTests {
    static let fields = ["frame.time_epoch", "frame.interface_id", "frame.len", "frame.cap_len", "ip.src", "ip.dst",
                         "ipv6.src", "ipv6.dst", "tcp.srcport", "tcp.dstport", "udp.srcport", "udp.dstport", "tcp.len"]

    static func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), arguments)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// tshark's packets of `file`. It lists a pcapng custom block as a record of its own, with no
    /// interface: that is no packet.
    static func frames(of file: URL) throws -> [[String: String]] {
        try Tshark.fields(fields, of: file).map { $0.compactMapValues(\.first) }
            .filter { !file.path.hasSuffix(".pcapng") || $0["frame.interface_id"] != nil }
    }

    /// "1796000000.123456789" as nanoseconds, digit for digit (a Double loses the last ones).
    static func nanoseconds(_ epoch: String) -> Int? {
        let parts = epoch.split(separator: ".")
        guard let seconds = Int(parts[0]) else { return nil }
        let fraction = parts.count > 1 ? String(parts[1]).padding(toLength: 9, withPad: "0", startingAt: 0) : "0"
        return seconds * 1_000_000_000 + (Int(fraction) ?? 0)
    }

    /// The conversation key tshark's fields give a frame: protocol and both endpoints, either way round.
    static func conversation(_ frame: [String: String]) -> String? {
        guard let source = frame["ip.src"] ?? frame["ipv6.src"], let destination = frame["ip.dst"] ?? frame["ipv6.dst"] else { return nil }
        let (proto, ports) = frame["tcp.srcport"] != nil ? ("tcp", (frame["tcp.srcport"]!, frame["tcp.dstport"]!))
            : ("udp", (frame["udp.srcport"] ?? "", frame["udp.dstport"] ?? ""))
        return proto + " " + ["\(source) \(ports.0)", "\(destination) \(ports.1)"].sorted().joined(separator: " ")
    }

    @Test("packets and analyze read every capture of the corpus as tshark does, record by record")
    func everyCaptureAgreesWithTshark() throws {
        let directory = TemporaryDirectory()
        try ForeignCaptureCorpus.write(into: directory.url)
        for name in ForeignCaptureCorpus.readable {
            let file = directory.url.appendingPathComponent(name)
            let expected = try Self.frames(of: file)
            #expect(expected.count >= 5, "\(name): tshark reads \(expected.count) packets")
            let listing = try Self.run(["packets", file.path, "--json"])
            #expect(listing.status == 0, "\(name): \(listing.err)")
            let document = try Self.json(listing.out)
            #expect(document["format"] as? String == (name.hasSuffix(".pcapng") ? "pcapng" : "pcap"), "\(name)")
            let records = try #require(document["records"] as? [[String: Any]], "\(name)")
            #expect(records.count == expected.count, "\(name): \(records.count) records, tshark reads \(expected.count)")
            for (index, (record, frame)) in zip(records, expected).enumerated() {
                let at = "\(name) packet \(index + 1)"
                #expect(record["originalLength"] as? Int == Int(frame["frame.len"] ?? ""), "\(at)")
                #expect(record["capturedLength"] as? Int == Int(frame["frame.cap_len"] ?? ""), "\(at)")
                // A Simple Packet Block has no time: tshark shows none, we show 0.
                #expect(record["timestampNanoseconds"] as? Int == frame["frame.time_epoch"].flatMap(Self.nanoseconds) ?? 0, "\(at)")
                guard let source = frame["ip.src"] ?? frame["ipv6.src"] else {
                    #expect(record["notIP"] as? Bool == true, "\(at): tshark finds no IP in it, we read \(record)")
                    continue
                }
                #expect(record["error"] == nil, "\(at): \(record["error"] ?? "")")
                #expect(record["source"] as? String == source, "\(at)")
                #expect(record["destination"] as? String == frame["ip.dst"] ?? frame["ipv6.dst"], "\(at)")
                if let port = frame["tcp.srcport"] ?? frame["udp.srcport"] {
                    #expect(record["sourcePort"] as? Int == Int(port), "\(at)")
                    #expect(record["destinationPort"] as? Int == Int(frame["tcp.dstport"] ?? frame["udp.dstport"] ?? ""), "\(at)")
                }
                if let length = frame["tcp.len"] {
                    #expect((record["tcp"] as? [String: Any])?["payloadLength"] as? Int == Int(length), "\(at)")
                }
            }

            let analysis = try Self.run(["analyze", file.path, "--json"])
            #expect(analysis.status == 0, "\(name): \(analysis.err)")
            let report = try Self.json(analysis.out)
            let keys = expected.map(Self.conversation)
            #expect(report["packets"] as? Int == expected.count, "\(name)")
            #expect(report["nonIPFrames"] as? Int == keys.filter { $0 == nil }.count, "\(name)")
            #expect(report["unreadablePackets"] as? Int == 0, "\(name)")
            #expect(report["damage"] is NSNull, "\(name)")
            var packetsByConversation: [String: Int] = [:]
            for key in keys.compactMap({ $0 }) { packetsByConversation[key, default: 0] += 1 }
            let conversations = try #require(report["conversations"] as? [[String: Any]], "\(name)")
            var found: [String: Int] = [:]
            for conversation in conversations {
                let ends = [conversation["client"], conversation["server"]].compactMap { $0 as? String }.map(Self.endpointWords).sorted()
                found["\(conversation["protocol"] as? String ?? "?") " + ends.joined(separator: " "), default: 0] += conversation["packets"] as? Int ?? 0
            }
            #expect(found == packetsByConversation, "\(name)")
        }
    }

    /// "198.18.0.1:40000" or "[fd00::1]:53" as tshark's "address port".
    static func endpointWords(_ endpoint: String) -> String {
        guard let colon = endpoint.lastIndex(of: ":") else { return endpoint }
        let address = endpoint[..<colon].trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return "\(address) \(endpoint[endpoint.index(after: colon)...])"
    }

    @Test("a capture of 802.11 frames says what it is, and the conversion it names gives a capture read as tshark reads it")
    func anUnreadableCaptureNamesAConversionThatWorks() throws {
        let directory = TemporaryDirectory()
        try ForeignCaptureCorpus.write(into: directory.url)
        for name in ForeignCaptureCorpus.wifi {
            let file = directory.url.appendingPathComponent(name)
            for command in ["packets", "analyze"] {
                let refused = try Self.run([command, file.path])
                #expect(refused.status == 1 && refused.out.isEmpty, "\(command) \(name)")
                let what = name.hasSuffix(".pcapng") ? "a pcapng file whose interface 0 is IEEE 802.11 with radiotap (link type 127)"
                    : "a pcap file of IEEE 802.11 with radiotap (link type 127)"
                #expect(refused.err.contains(what), "\(command) \(name): \(refused.err)")
                #expect(refused.err.contains("tshark -r IN -U IP -F pcap -w OUT.pcap"), "\(command) \(name): \(refused.err)")
            }
            // The conversion, exactly as named.
            let converted = directory.url.appendingPathComponent(name + ".ip.pcap")
            let words = "tshark -r IN -U IP -F pcap -w OUT.pcap".split(separator: " ").map(String.init)
                .map { $0 == "IN" ? file.path : $0 == "OUT.pcap" ? converted.path : $0 }
            let tshark = Process()
            tshark.executableURL = try Tshark.executable()
            tshark.arguments = Array(words.dropFirst())
            tshark.standardOutput = FileHandle.nullDevice
            tshark.standardError = FileHandle.nullDevice
            try tshark.run()
            tshark.waitUntilExit()
            #expect(tshark.terminationStatus == 0)
            let expected = try Self.frames(of: file)
            let listing = try Self.run(["packets", converted.path, "--json"])
            let records = try #require(try Self.json(listing.out)["records"] as? [[String: Any]])
            #expect(records.count == expected.count && expected.count == 3)
            for (record, frame) in zip(records, expected) {
                #expect(record["source"] as? String == frame["ip.src"])
                #expect(record["timestampNanoseconds"] as? Int == frame["frame.time_epoch"].flatMap(Self.nanoseconds))
            }
        }
    }

    @Test("a pcapng file cut inside a block is read up to the damage, which is named, as tshark reads it")
    func aCutPcapngFileIsReadUpToTheDamage() throws {
        let directory = TemporaryDirectory()
        try ForeignCaptureCorpus.write(into: directory.url)
        let file = directory.url.appendingPathComponent(ForeignCaptureCorpus.cut)
        // tshark exits 2 over the cut file: the whole one, less its last packet, is what it reads of it.
        let expected = try Self.frames(of: directory.url.appendingPathComponent("raw.pcapng")).dropLast()
        let listing = try Self.run(["packets", file.path, "--json"])
        #expect(listing.status == 1)
        let document = try Self.json(listing.out)
        #expect((document["records"] as? [Any])?.count == expected.count)
        let damage = try #require(document["damage"] as? [String: Any])
        #expect(damage["recordIndex"] as? Int == expected.count + 1)
        #expect((damage["message"] as? String)?.contains("runs past the end of the file") == true)
        let analysis = try Self.run(["analyze", file.path, "--json"])
        let report = try Self.json(analysis.out)
        #expect(report["packets"] as? Int == expected.count)
        #expect((report["damage"] as? String)?.contains("record \(expected.count)") == true, "\(report["damage"] ?? "")")
    }
}
