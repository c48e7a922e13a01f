import Foundation
import Testing
import TestSupport
@testable import Shared

/// The streaming pcapng writer of the evidence capture (audit.md § Evidence bundle, pcap.md §
/// pcapng): tshark reads back every packet's bytes, comment, direction and instant; an empty
/// capture is still a file; the SHA-256 it reports is `sha256sum`'s of the file.
@Suite struct PcapngWriterTests {
    struct Packet {
        var bytes: [UInt8]
        var originalLength: Int
        var microseconds: UInt64
        var direction: Direction
        var comment: String?
    }

    static func udp(_ source: String, _ destination: String, payload: [UInt8]) throws -> [UInt8] {
        Array(try PacketEmitter.udp(source: IPEndpoint(address: IPAddress(parsing: source)!, port: 40_001),
                                    destination: IPEndpoint(address: IPAddress(parsing: destination)!, port: 40_002),
                                    payload: Data(payload)))
    }

    static func packets() throws -> [Packet] {
        let v4 = try udp("198.18.0.2", "198.18.0.1", payload: [1, 2, 3])
        let v6 = try udp("fd00::2", "fd00::1", payload: Array(0..<201))
        let long = try udp("198.18.0.1", "198.18.0.2", payload: [UInt8](repeating: 0xAB, count: 1000))
        return [
            Packet(bytes: v4, originalLength: v4.count, microseconds: 1_796_005_130_000_001, direction: .outbound,
                   comment: "flow=12 findings=F1,F3"),
            Packet(bytes: v6, originalLength: v6.count, microseconds: 1_796_005_130_500_000, direction: .inbound, comment: "flow=13 é"),
            // Cut by a 128-byte snaplen: the record keeps 128 of its bytes and says how long it was.
            Packet(bytes: Array(long.prefix(128)), originalLength: long.count, microseconds: 1_796_005_131_999_999,
                   direction: .inbound, comment: nil),
        ]
    }

    /// `packets` written through a writer into `file` by a FileHandle.
    static func write(_ packets: [Packet], snaplen: UInt32 = 262_144, to file: URL) throws -> PcapngWriter.Summary {
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        var writer = try PcapngWriter(snaplen: snaplen, application: "tunnelvision test", handle: handle)
        for packet in packets {
            try writer.append(packet.bytes, originalLength: packet.originalLength, microsecondsSince1970: packet.microseconds,
                              direction: packet.direction, comment: packet.comment)
        }
        return try writer.finish()
    }

    static func sha256sum(_ file: URL) throws -> String {
        let result = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), [file.path])
        #expect(result.status == 0)
        return String(result.out.prefix(64))
    }

    @Test("tshark reads back every packet's bytes, lengths, comment, direction and instant")
    func tsharkReadsEveryPacket() throws {
        let directory = TemporaryDirectory("tv-pcapng-writer")
        let file = directory.url.appendingPathComponent("capture.pcapng")
        let packets = try Self.packets()
        let summary = try Self.write(packets, to: file)
        #expect(summary.packetCount == 3)

        #expect(try Tshark.frameBytes(of: file) == packets.map(\.bytes))
        let frames = try Tshark.fields(["frame.comment", "frame.packet_flags_direction", "frame.time_epoch",
                                        "frame.cap_len", "frame.len"], of: file)
        #expect(frames.count == packets.count)
        for (frame, packet) in zip(frames, packets) {
            #expect(frame["frame.comment"] == packet.comment.map { [$0] })
            let flags = frame["frame.packet_flags_direction"]?.first.flatMap { UInt32($0.replacingOccurrences(of: "0x", with: ""), radix: 16) }
            #expect(flags == (packet.direction == .inbound ? 1 : 2))
            let seconds = packet.microseconds / 1_000_000, fraction = packet.microseconds % 1_000_000
            let instant = "\(seconds)." + String(repeating: "0", count: 6 - String(fraction).count) + String(fraction)
            #expect(frame["frame.time_epoch"]?.first?.hasPrefix(instant) == true)
            #expect(frame["frame.cap_len"] == ["\(packet.bytes.count)"] && frame["frame.len"] == ["\(packet.originalLength)"])
        }
    }

    @Test("a capture without packets is still a file: its two header blocks, which tshark opens with no packet")
    func emptyCapture() throws {
        let directory = TemporaryDirectory("tv-pcapng-writer")
        let file = directory.url.appendingPathComponent("empty.pcapng")
        let summary = try Self.write([], snaplen: 0, to: file)
        #expect(summary.packetCount == 0)
        #expect(try Tshark.fields(["frame.number"], of: file).isEmpty)
        #expect(try Tshark.frameBytes(of: file).isEmpty)
        // Our own reader: one section, one raw-IP interface without a limit, nothing else.
        let bytes = try [UInt8](Data(contentsOf: file))
        var walker = PcapngWalker()
        var offset = 0, blocks: [UInt32] = []
        try bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let (block, next) = try walker.step(in: raw, at: offset)
                guard case let .other(type) = block else { Issue.record("a packet in an empty capture"); return }
                blocks.append(type)
                offset = next
            }
        }
        #expect(blocks == [PcapngBlock.sectionHeader, PcapngBlock.interfaceDescription])
        #expect(walker.interfaces == [PcapngInterface(linkType: PcapFormat.linkTypeRaw, snaplen: 0)])
    }

    @Test("the SHA-256 reported is sha256sum's of the file, and the byte count its size")
    func digestIsTheFiles() throws {
        let directory = TemporaryDirectory("tv-pcapng-writer")
        for (name, packets) in [("some.pcapng", try Self.packets()), ("none.pcapng", [])] {
            let file = directory.url.appendingPathComponent(name)
            let summary = try Self.write(packets, to: file)
            #expect(X509Digest.lowercaseHex(summary.sha256) == (try Self.sha256sum(file)))
            let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber
            #expect(summary.byteCount == size?.uint64Value)
        }
    }

    @Test("the sink gets the bytes in pieces, not a write a packet, and they are PcapngFormat's blocks exactly")
    func piecesAreTheFormatsBlocks() throws {
        var pieces: [[UInt8]] = []
        var writer = try PcapngWriter(snaplen: 65_535, application: nil) { pieces.append($0) }
        var expected: [UInt8] = []
        try PcapngFormat.appendSectionHeader(application: nil, to: &expected)
        PcapngFormat.appendInterfaceDescription(snaplen: 65_535, to: &expected)
        let payload = [UInt8](repeating: 0x5A, count: 1400)
        for index in 0..<200 {
            let direction: Direction = index.isMultiple(of: 2) ? .outbound : .inbound
            try writer.append(payload, originalLength: 1500, microsecondsSince1970: UInt64(index), direction: direction,
                              comment: "flow=\(index)")
            try PcapngFormat.appendEnhancedPacket(payload, originalLength: 1500, microsecondsSince1970: UInt64(index),
                                                  options: [.comment("flow=\(index)"), .flags(direction)], to: &expected)
        }
        #expect(pieces.count >= 1 && pieces.count < 10)   // ~290 kB in 64 kB pieces, before the last
        let summary = try writer.finish()
        #expect(pieces.joined().elementsEqual(expected))
        #expect(summary.sha256 == X509Digest.sha256(expected) && summary.byteCount == UInt64(expected.count))
        #expect(summary.packetCount == 200)
    }

    @Test("a packet or comment too long is refused alone and the writer goes on")
    func tooLongIsRefusedAlone() throws {
        var written: [UInt8] = []
        var writer = try PcapngWriter(snaplen: 0) { written += $0 }
        #expect(throws: PcapngWriterError.format(.optionTooLong(code: PcapngFormat.optionComment, byteCount: 70_000))) {
            try writer.append([1], originalLength: 1, microsecondsSince1970: 0, direction: .outbound,
                              comment: String(repeating: "x", count: 70_000))
        }
        try writer.append([1], originalLength: 1, microsecondsSince1970: 0, direction: .outbound)
        let summary = try writer.finish()
        #expect(summary.packetCount == 1 && summary.sha256 == X509Digest.sha256(written))
    }

    @Test("a sink that fails ends the writer: that call and every later one say so")
    func sinkFailure() throws {
        struct DiskFull: Error {}
        var writer = try PcapngWriter(snaplen: 0) { _ in throw DiskFull() }
        let payload = [UInt8](repeating: 0, count: PcapngWriter.flushThreshold)
        let error = #expect(throws: PcapngWriterError.self) {
            try writer.append(payload, originalLength: payload.count, microsecondsSince1970: 0, direction: .inbound)
        }
        #expect(error == .writeFailed(String(describing: DiskFull())))
        #expect(throws: PcapngWriterError.self) {
            try writer.append([1], originalLength: 1, microsecondsSince1970: 0, direction: .inbound)
        }
        do throws(PcapngWriterError) {
            _ = try writer.finish()
            Issue.record("a writer whose sink failed finished")
        } catch {
            #expect(error == .writeFailed(String(describing: DiskFull())))
        }
    }
}
