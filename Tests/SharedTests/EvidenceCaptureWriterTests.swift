import Foundation
import Testing
import TestSupport
@testable import Shared

/// `capture.pcapng` of an evidence bundle (audit.md § Evidence bundle), from real rotated `.pcap`
/// files written by the tunnel's own `PcapFileWriter`, read back by tshark: every packet's bytes,
/// comment and direction in capture order; what could not be written counted apart; a refusal
/// before anything is written; and a failure that leaves no file.
@Suite struct EvidenceCaptureWriterTests {
    static let start = Date(timeIntervalSince1970: 1_796_005_130)
    static let session = AuditSession(id: 9, projectID: 3, kind: .baseline,
                                      environment: AuditEnvironment(deviceModel: "lab", osVersion: "Linux 6.1", toolVersion: "test"),
                                      inspection: InspectionConditions(inspectionEnabled: false, caTrusted: false),
                                      startedAt: start, endedAt: start.addingTimeInterval(100))

    /// One packet to capture: its flow, direction, second after the session's start, and bytes.
    struct Sent {
        let flow: Int64
        let direction: Direction
        let second: Double
        let datagram: [UInt8]
    }

    /// What the history would say after a tunnel captured `sent` in order (rotating after about
    /// `rotateAfter` bytes), or did not capture those `uncaptured`: the captures directory, each
    /// captured packet as the store lists it, and the counts.
    struct Recorded {
        let directory: URL
        let files: [UInt32: URL]
        let packets: [UInt32: [SessionCapturedPacket]]
        let counts: [SessionPacketCount]
        let captured: [(packet: SessionCapturedPacket, sent: Sent, file: UInt32)]
    }

    static func datagram(flow: Int64, direction: Direction, size: Int) throws -> [UInt8] {
        let device = IPEndpoint(address: IPAddress(parsing: "198.18.0.2")!, port: UInt16(40_000 + flow))
        let server = IPEndpoint(address: IPAddress(parsing: "198.18.0.1")!, port: 443)
        let (source, destination) = direction == .outbound ? (device, server) : (server, device)
        return Array(try PacketEmitter.udp(source: source, destination: destination, payload: Data((0..<size).map { UInt8($0 % 251) })))
    }

    static func record(_ sent: [Sent], uncaptured: [Int64: Int] = [:], in directory: URL, rotateAfter: UInt64 = 1_500,
                       snaplens: [UInt32] = []) throws -> Recorded {
        let writer = try PcapFileWriter(config: .init(directory: directory, snaplen: snaplens.first ?? 262_144, maxFileBytes: rotateAfter))
        var captured: [(SessionCapturedPacket, Sent, UInt32)] = []
        for (index, packet) in sent.enumerated() {
            // A snaplen change rotates: the files differ in snaplen.
            if index > 0, index < snaplens.count { try writer.setSnaplen(snaplens[index]) }
            let instant = start.addingTimeInterval(packet.second)
            let location = try writer.write(packet: Data(packet.datagram), originalLength: packet.datagram.count,
                                            timestamp: Int64((instant.timeIntervalSince1970 * 1e9).rounded()))
            captured.append((SessionCapturedPacket(flowID: packet.flow, recordOffset: location.recordOffset, direction: packet.direction,
                                                   date: instant, length: UInt32(packet.datagram.count)), packet, location.fileSequence))
        }
        try writer.close()
        var packets: [UInt32: [SessionCapturedPacket]] = [:]
        var counts: [String: Int] = [:]
        for (packet, _, file) in captured {
            packets[file, default: []].append(packet)
            counts["\(packet.flowID)/\(file)", default: 0] += 1
        }
        var list = counts.map { key, count in
            let parts = key.split(separator: "/")
            return SessionPacketCount(flowID: Int64(parts[0])!, fileSequence: UInt32(parts[1])!, packetCount: count)
        }
        list += uncaptured.map { SessionPacketCount(flowID: $0.key, fileSequence: nil, packetCount: $0.value) }
        return Recorded(directory: directory, files: try CaptureDirectory.files(in: directory),
                        packets: packets.mapValues { $0.sorted { $0.recordOffset < $1.recordOffset } },
                        counts: list.sorted { ($0.flowID, $0.fileSequence ?? 0) < ($1.flowID, $1.fileSequence ?? 0) },
                        captured: captured)
    }

    /// Writes the capture of `recorded` for the bundle's flows `findingIDs`.
    static func write(_ recorded: Recorded, findingIDs: [Int64: [String]], to destination: URL,
                      files: [UInt32: URL]? = nil) throws -> EvidenceCapture {
        let writer = try EvidenceCaptureWriter(destination: destination, captureFiles: files ?? recorded.files, session: session,
                                               findingIDs: findingIDs, packetCounts: recorded.counts)
        for file in writer.filesToRead { try writer.write(fileSequence: file, packets: recorded.packets[file] ?? []) }
        return try writer.finish()
    }

    static func object(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    static func sha256sum(_ file: URL) throws -> String {
        String(try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), [file.path]).out.prefix(64))
    }

    /// Three flows over several files, interleaved, both directions, two of them with findings.
    static func traffic() throws -> [Sent] {
        var sent: [Sent] = []
        for index in 0..<12 {
            let flow = Int64([1, 2, 3][index % 3])
            let direction: Direction = index % 2 == 0 ? .outbound : .inbound
            sent.append(Sent(flow: flow, direction: direction, second: Double(index), datagram: try datagram(flow: flow, direction: direction,
                                                                                                           size: 150 + index * 37)))
        }
        return sent
    }

    static let findingIDs: [Int64: [String]] = [1: ["F1", "F3"], 2: [], 3: ["F2"], 4: []]

    @Test("tshark reads every packet in capture order — files by sequence, records by offset — with its flow's comment and its direction")
    func tsharkReadsCaptureOrder() throws {
        let directory = TemporaryDirectory("tv-evidence-capture")
        let captures = directory.url.appendingPathComponent("captures")
        let sent = try Self.traffic()
        // The first file cut at 128 bytes, the rest whole: the interface takes the largest snaplen.
        let recorded = try Self.record(sent, uncaptured: [2: 3], in: captures, snaplens: [128, 65_535])
        #expect(Set(recorded.captured.map(\.file)).count >= 3)
        let output = directory.url.appendingPathComponent("capture.pcapng")
        let capture = try Self.write(recorded, findingIDs: Self.findingIDs, to: output)

        let order = recorded.captured.sorted { ($0.file, $0.packet.recordOffset) < ($1.file, $1.packet.recordOffset) }
        let frames = try Tshark.fields(["frame.comment", "frame.packet_flags_direction", "frame.len", "frame.time_epoch"], of: output)
        #expect(frames.map { $0["frame.comment"]?.first } == order.map { item in
            Self.findingIDs[item.sent.flow]!.isEmpty ? "flow=\(item.sent.flow)"
                : "flow=\(item.sent.flow) findings=" + Self.findingIDs[item.sent.flow]!.joined(separator: ",")
        })
        #expect(frames.map { $0["frame.packet_flags_direction"]?.first.flatMap { UInt32($0.replacingOccurrences(of: "0x", with: ""), radix: 16) } }
                == order.map { $0.sent.direction == .inbound ? 1 : 2 })
        #expect(frames.map { $0["frame.len"]?.first } == order.map { "\($0.sent.datagram.count)" })
        #expect(frames.map { $0["frame.time_epoch"]?.first?.prefix(10) } == order.map { "\(Int(Self.start.timeIntervalSince1970 + $0.sent.second))"[...] })
        // The bytes as captured: the first packet cut to the first file's 128.
        let bytes = try Tshark.frameBytes(of: output)
        #expect(bytes.first == Array(order[0].sent.datagram.prefix(128)))
        #expect(Array(bytes.dropFirst()) == order.dropFirst().map(\.sent.datagram))
        #expect(try Tshark.fields(["frame.comment"], of: output, options: ["-Y", "frame.comment contains \"findings=F1,F3\""]).count == 4)

        #expect(capture.written == 12 && capture.notCaptured == 3 && capture.recorded == 15)
        #expect(capture.captureFileMissing == 0 && capture.recordUnreadable == 0)
        #expect(capture.snaplen == 65_535 && capture.flowCount == 4 && capture.flowsWithoutPacketsWritten == [4])
        #expect(capture.readFiles.map(\.sequence) == Array(recorded.files.keys).sorted())
        #expect(capture.readFiles.map(\.name) == Array(recorded.files.keys).sorted().map { recorded.files[$0]!.lastPathComponent })
        #expect(X509Digest.lowercaseHex(capture.sha256) == (try Self.sha256sum(output)))
        #expect(capture.manifestEntry.byteCount == (try FileManager.default.attributesOfItem(atPath: output.path)[.size] as? NSNumber)?.uint64Value)
        let status = try #require(PathStatus.of(output.path))
        #expect(status.mode & 0o777 == 0o600)
    }

    @Test("capture.json says what was written and what was not, with recorded the sum, sorted keys and no null")
    func captureDescription() throws {
        let directory = TemporaryDirectory("tv-evidence-capture")
        let recorded = try Self.record(try Self.traffic(), uncaptured: [2: 3, 4: 1], in: directory.url.appendingPathComponent("captures"))
        let capture = try Self.write(recorded, findingIDs: Self.findingIDs, to: directory.url.appendingPathComponent("capture.pcapng"))
        let json = try Self.object(capture.json)
        #expect(Set(json.keys) == ["file", "fileFormat", "flows", "linkType", "notes", "packets", "snaplen", "sourceFiles",
                                   "writtenOutsideSession"])
        #expect(json["file"] as? String == "capture.pcapng" && json["fileFormat"] as? String == "pcapng" && json["linkType"] as? Int == 101)
        let packets = try #require(json["packets"] as? [String: Any])
        #expect(packets["recorded"] as? Int == 16 && packets["written"] as? Int == 12)
        #expect(packets["withoutBytes"] as? [String: Int] == ["notCaptured": 4, "captureFileMissing": 0, "recordUnreadable": 0])
        #expect(json["writtenOutsideSession"] as? [String: Int] == ["beforeStart": 0, "afterEnd": 0])
        let flows = try #require(json["flows"] as? [String: Any])
        #expect(flows["count"] as? Int == 4 && flows["withPacketsWritten"] as? Int == 3 && flows["withoutPacketsWrittenIDs"] as? [Int] == [4])
        let sources = try #require(json["sourceFiles"] as? [String: [[String: Any]]])
        #expect(sources["read"]?.map { $0["sequence"] as? Int } == capture.readFiles.map { Int($0.sequence) })
        #expect(sources["read"]?.map { $0["packetsWritten"] as? Int }.reduce(0) { $0 + ($1 ?? 0) } == 12)
        #expect(sources["missing"]?.isEmpty == true && sources["unreadable"]?.isEmpty == true)
        let notes = try #require(json["notes"] as? [String])
        #expect(notes.contains { $0.hasPrefix("4 packets were recorded while their bytes were not captured") })
        #expect(try PythonJSON.unsortedKeysAndNulls(String(decoding: capture.json, as: UTF8.self)) == [])
    }

    @Test("an empty capture is still a section and an interface of snaplen 0, which tshark opens with no packet")
    func emptyCapture() throws {
        let directory = TemporaryDirectory("tv-evidence-capture")
        let output = directory.url.appendingPathComponent("capture.pcapng")
        let writer = try EvidenceCaptureWriter(destination: output, captureFiles: [:], session: Self.session, findingIDs: [1: []],
                                               packetCounts: [SessionPacketCount(flowID: 1, fileSequence: nil, packetCount: 2)])
        #expect(writer.filesToRead.isEmpty)
        let capture = try writer.finish()
        #expect(capture.written == 0 && capture.notCaptured == 2 && capture.snaplen == 0)
        #expect(try Tshark.fields(["frame.number"], of: output).isEmpty)
        let bytes = try [UInt8](Data(contentsOf: output))
        var walker = PcapngWalker()
        var offset = 0
        try bytes.withUnsafeBytes { raw in
            while offset < raw.count { offset = try walker.step(in: raw, at: offset).next }
        }
        #expect(walker.sections == 1 && walker.interfaces == [PcapngInterface(linkType: PcapFormat.linkTypeRaw, snaplen: 0)])
        #expect(capture.byteCount == UInt64(bytes.count))
    }

    @Test("a missing file, an unreadable file, a cut record and a record of another length are counted, each where it belongs; the rest is written")
    func missingAndUnreadable() throws {
        let directory = TemporaryDirectory("tv-evidence-capture")
        let captures = directory.url.appendingPathComponent("captures")
        let recorded = try Self.record(try Self.traffic(), uncaptured: [1: 2], in: captures, rotateAfter: 800)
        let sequences = recorded.files.keys.sorted()
        try #require(sequences.count >= 5)
        let count = { (file: UInt32) in recorded.packets[file]?.count ?? 0 }
        // Gone, then not a capture at all, then another link type.
        try FileManager.default.removeItem(at: recorded.files[sequences[0]]!)
        try Data("not a capture".utf8).write(to: recorded.files[sequences[1]]!)
        var ethernet = [UInt8](repeating: 0, count: PcapFormat.globalHeaderLength)
        ethernet.withUnsafeMutableBytes { PcapFormat.GlobalHeader(snaplen: 65_535, linkType: 1).emit(into: $0) }
        let handle = try FileHandle(forWritingTo: recorded.files[sequences[2]]!)
        try handle.write(contentsOf: ethernet)
        try handle.close()
        // The last file cut in the middle of its last record.
        let last = recorded.files[sequences.last!]!
        let size = try #require(try FileManager.default.attributesOfItem(atPath: last.path)[.size] as? NSNumber).intValue
        try FileHandle(forWritingTo: last).truncate(atOffset: UInt64(size - 10))
        // The history says another length for the first packet of the fourth file.
        var packets = recorded.packets
        let changed = try #require(packets[sequences[3]]?.first)
        packets[sequences[3]]![0] = SessionCapturedPacket(flowID: changed.flowID, recordOffset: changed.recordOffset, direction: changed.direction,
                                                         date: changed.date, length: changed.length + 1)
        let output = directory.url.appendingPathComponent("capture.pcapng")
        let writer = try EvidenceCaptureWriter(destination: output, captureFiles: try CaptureDirectory.files(in: captures), session: Self.session,
                                               findingIDs: Self.findingIDs, packetCounts: recorded.counts)
        #expect(writer.filesToRead == Array(sequences.dropFirst(3)))
        for file in writer.filesToRead { try writer.write(fileSequence: file, packets: packets[file] ?? []) }
        let capture = try writer.finish()
        #expect(capture.captureFileMissing == count(sequences[0]))
        #expect(capture.missingFiles == [EvidenceCapture.MissingFile(sequence: sequences[0], packets: count(sequences[0]))])
        #expect(capture.unreadableFiles.map(\.reason) == ["notAClassicPcap", "notRawIP"])
        #expect(capture.unreadableFiles.map(\.packets) == [count(sequences[1]), count(sequences[2])])
        #expect(capture.readFiles.first?.recordsUnreadable == 1 && capture.readFiles.last?.recordsUnreadable == 1)
        #expect(capture.recordUnreadable == count(sequences[1]) + count(sequences[2]) + 2)
        #expect(capture.notCaptured == 2 && capture.recorded == 14)
        #expect(capture.written == 12 - count(sequences[0]) - count(sequences[1]) - count(sequences[2]) - 2)
        #expect(try Tshark.fields(["frame.number"], of: output).count == capture.written)
        let json = try Self.object(capture.json)
        let sources = try #require(json["sourceFiles"] as? [String: [[String: Any]]])
        #expect(sources["unreadable"]?.map { $0["file"] as? String } == [recorded.files[sequences[1]]!.lastPathComponent,
                                                                        recorded.files[sequences[2]]!.lastPathComponent])
        #expect(sources["missing"]?.map { $0["sequence"] as? Int } == [Int(sequences[0])])
    }

    @Test("a file written by another tool in the other byte order with nanosecond stamps is carried over as it says")
    func foreignRawIPFile() throws {
        let directory = TemporaryDirectory("tv-evidence-capture")
        let captures = directory.url.appendingPathComponent("captures")
        try FileManager.default.createDirectory(at: captures, withIntermediateDirectories: true)
        let packet = try Self.datagram(flow: 1, direction: .inbound, size: 60)
        // Big-endian, nanosecond magic 0xa1b23c4d, LINKTYPE_RAW, one record 1.000000123 s after the start.
        func big(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
        var file = big(0xA1B2_3C4D) + [0, 2, 0, 4] + big(0) + big(0) + big(65_535) + big(101)
        let seconds = UInt32(Self.start.timeIntervalSince1970) + 1
        file += big(seconds) + big(123) + big(UInt32(packet.count)) + big(UInt32(packet.count)) + packet
        let url = captures.appendingPathComponent(CaptureFileName.make(sequence: 7, nanosecondsSince1970: 0))
        try Data(file).write(to: url)
        let output = directory.url.appendingPathComponent("capture.pcapng")
        let writer = try EvidenceCaptureWriter(destination: output, captureFiles: [7: url], session: Self.session, findingIDs: [1: []],
                                               packetCounts: [SessionPacketCount(flowID: 1, fileSequence: 7, packetCount: 1)])
        try writer.write(fileSequence: 7, packets: [SessionCapturedPacket(flowID: 1, recordOffset: 24, direction: .inbound,
                                                                          date: Self.start.addingTimeInterval(1), length: UInt32(packet.count))])
        let capture = try writer.finish()
        #expect(capture.written == 1 && capture.snaplen == 65_535)
        #expect(try Tshark.frameBytes(of: output) == [packet])
        #expect(try Tshark.fields(["frame.time_epoch"], of: output).first?["frame.time_epoch"]?.first?.hasPrefix("\(seconds).000000") == true)
    }

    @Test("packets before the session's start or after its end are written and counted apart")
    func outsideTheSession() throws {
        let directory = TemporaryDirectory("tv-evidence-capture")
        let sent = try [-5.0, 1, 50, 101, 130].map { second in
            Sent(flow: 1, direction: .outbound, second: second, datagram: try Self.datagram(flow: 1, direction: .outbound, size: 40))
        }
        let recorded = try Self.record(sent, in: directory.url.appendingPathComponent("captures"))
        let capture = try Self.write(recorded, findingIDs: [1: []], to: directory.url.appendingPathComponent("capture.pcapng"))
        #expect(capture.written == 5 && capture.writtenBeforeStart == 1 && capture.writtenAfterEnd == 2)
        let json = try Self.object(capture.json)
        #expect(json["writtenOutsideSession"] as? [String: Int] == ["beforeStart": 1, "afterEnd": 2])
    }

    @Test("a packet of a flow the bundle does not list is refused: from the counts before any file is made, from a file's packets before any of them is written, and the partial file is removed")
    func flowNotInBundle() throws {
        let directory = TemporaryDirectory("tv-evidence-capture")
        let recorded = try Self.record(try Self.traffic(), in: directory.url.appendingPathComponent("captures"))
        let output = directory.url.appendingPathComponent("capture.pcapng")
        #expect(throws: EvidenceCaptureError.flowNotInBundle(id: 3)) {
            _ = try EvidenceCaptureWriter(destination: output, captureFiles: recorded.files, session: Self.session,
                                          findingIDs: [1: [], 2: []], packetCounts: recorded.counts)
        }
        #expect(PathStatus.of(output.path) == nil)
        // The counts are the bundle's, but the second file's packets name another flow.
        var packets = recorded.packets
        let files = recorded.files.keys.sorted()
        let first = try #require(packets[files[1]]?.first)
        packets[files[1]]![0] = SessionCapturedPacket(flowID: 99, recordOffset: first.recordOffset, direction: first.direction,
                                                     date: first.date, length: first.length)
        do {
            let writer = try EvidenceCaptureWriter(destination: output, captureFiles: recorded.files, session: Self.session,
                                                   findingIDs: Self.findingIDs, packetCounts: recorded.counts)
            try writer.write(fileSequence: files[0], packets: packets[files[0]] ?? [])
            #expect(PathStatus.of(output.path) != nil)
            #expect(throws: EvidenceCaptureError.flowNotInBundle(id: 99)) { try writer.write(fileSequence: files[1], packets: packets[files[1]]!) }
        }
        // The writer let go unfinished: its partial file is gone.
        #expect(PathStatus.of(output.path) == nil)
    }

    @Test("a destination that cannot be made is refused as such, and an existing file there is left alone")
    func destinationUnavailable() throws {
        let directory = TemporaryDirectory("tv-evidence-capture")
        let existing = directory.url.appendingPathComponent("capture.pcapng")
        try Data("mine".utf8).write(to: existing)
        #expect {
            _ = try EvidenceCaptureWriter(destination: existing, captureFiles: [:], session: Self.session, findingIDs: [:], packetCounts: [])
        } throws: { error in
            guard case .destinationUnavailable = error as? EvidenceCaptureError else { return false }
            return true
        }
        #expect(try Data(contentsOf: existing) == Data("mine".utf8))
        #expect {
            _ = try EvidenceCaptureWriter(destination: directory.url.appendingPathComponent("absent/capture.pcapng"), captureFiles: [:],
                                          session: Self.session, findingIDs: [:], packetCounts: [])
        } throws: { error in
            guard case .destinationUnavailable = error as? EvidenceCaptureError else { return false }
            return true
        }
    }
}
