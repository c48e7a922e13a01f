import Fixtures
import Foundation
import TestSupport
import Testing
import Shared

/// The built `tunnelvision` binary, run as a person would, over captures written by `PcapWriter`.
@Suite(.serialized) struct PacketsCommandTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), arguments)
    }

    /// A capture of `count` synthetic packets plus one malformed record; returns its file.
    static func capture(in directory: URL, count: Int) async throws -> URL {
        let writer = try PcapWriter(config: .init(directory: directory))
        var traffic = SyntheticTraffic(seed: 5)
        for _ in 0..<count {
            let packet = traffic.next()
            try await writer.write(packet: packet.bytes, originalLength: packet.bytes.count, timestamp: 1_796_005_130_000_000_000)
        }
        try await writer.write(packet: Data([0x45, 0x00, 0x00]), originalLength: 3, timestamp: 1_796_005_130_000_000_000)
        try await writer.close()
        return await writer.captureFiles()[0]
    }

    @Test func helpAndVersionTellTheTruth() throws {
        let help = try Self.run(["--help"])
        #expect(help.status == 0 && help.out.contains("tunnelvision packets FILE [--json]        list every record of a capture (pcap or pcapng)"))
        let version = try Self.run(["version", "--json"])
        #expect(version.status == 0)
        let decoded = try JSONSerialization.jsonObject(with: Data(version.out.utf8)) as? [String: String]
        #expect(decoded?["version"] == ProductVersion.current)
        let wrong = try Self.run(["pakets"])
        #expect(wrong.status == 2 && wrong.err.contains("unknown command pakets"))
        #expect(try Self.run(["packets"]).status == 2)
    }

    @Test func packetsListsEveryRecordIncludingTheMalformedOne() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tv-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try await Self.capture(in: directory, count: 50)
        let text = try Self.run(["packets", file.path])
        #expect(text.status == 0)
        let lines = text.out.split(separator: "\n")
        #expect(lines.count == 51)
        #expect(lines.last?.contains("malformed: too short") == true)
        #expect(text.err.contains("51 records, 1 malformed"))

        let json = try Self.run(["packets", file.path, "--json"])
        #expect(json.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect((document["records"] as? [Any])?.count == 51 && document["linkType"] as? Int == 101)
        #expect((document["summary"] as? [String: Int])?["malformed"] == 1)
    }

    @Test func aDamagedFileIsListedUpToTheDamageAndExitsOne() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tv-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try await Self.capture(in: directory, count: 10)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? UInt64)
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: size - 2)
        try handle.close()
        let result = try Self.run(["packets", file.path])
        #expect(result.status == 1)
        #expect(result.out.split(separator: "\n").count == 10)
        #expect(result.err.contains("damaged at record 11"))
        let missing = try Self.run(["packets", directory.appendingPathComponent("none.pcap").path])
        #expect(missing.status == 1 && missing.err.contains("No such file"))
        // A pcapng file of one section header and no interface: read, with nothing in it.
        let pcapng = directory.appendingPathComponent("capture.pcapng")
        try Data([0x0a, 0x0d, 0x0d, 0x0a, 0x1c, 0, 0, 0, 0x4d, 0x3c, 0x2b, 0x1a, 1, 0, 0, 0] + [UInt8](repeating: 0xff, count: 8)
                 + [0x1c, 0, 0, 0]).write(to: pcapng)
        let folder = try Self.run(["packets", directory.path])
        #expect(folder.status == 1 && folder.err.contains("is not a regular file"))
        let empty = try Self.run(["packets", pcapng.path, "--json"])
        #expect(empty.status == 0 && empty.out.contains(#""format":"pcapng""#) && empty.out.contains(#""records":0"#))
    }
}
