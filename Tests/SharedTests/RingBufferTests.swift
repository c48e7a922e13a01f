import Fixtures
import Foundation
import TestSupport
import Testing
@testable import Shared

@Suite("The live-feed ring")
struct RingBufferTests {
    let directory = TemporaryDirectory("ring")
    var ringURL: URL { directory.url.appendingPathComponent("live.ring") }

    @Test("records pushed come back drained, in order, byte for byte")
    func roundTrip() throws {
        let producer = try RingBufferProducer(fileURL: ringURL, slotCount: 64)
        let consumer = try RingBufferConsumer(fileURL: ringURL)
        for index in 0..<50 { #expect(producer.push(RingProbe.record(UInt64(index)))) }
        let first = consumer.drain(max: 20)
        let rest = consumer.drain(max: 100)
        #expect(first.map(\.timestamp) == Array(0..<20))
        #expect(rest.map(\.timestamp) == Array(20..<50))
        #expect((first + rest).allSatisfy { RingProbe.index(of: $0) != nil })
        #expect(consumer.drain(max: 10).isEmpty)
        #expect(consumer.droppedCount() == 0)
    }

    @Test("a packet's metadata survives the 64-byte slot, with and without a capture location")
    func packetMetaRoundTrip() throws {
        let producer = try RingBufferProducer(fileURL: ringURL, slotCount: 8)
        let consumer = try RingBufferConsumer(fileURL: ringURL)
        let v4 = PacketMeta(timestamp: 123_456_789,
                            flowKey: FlowKey(proto: .tcp,
                                             source: IPEndpoint(address: IPAddress(parsing: "10.7.0.2")!, port: 50_000),
                                             destination: IPEndpoint(address: IPAddress(parsing: "198.18.0.9")!, port: 443)),
                            direction: .outbound, length: 1500, tcpFlags: [.syn, .ack],
                            capture: CaptureLocation(fileSequence: 7, recordOffset: 24))
        let v6 = PacketMeta(timestamp: .max,
                            flowKey: FlowKey(proto: .icmpv6,
                                             source: IPEndpoint(address: IPAddress(parsing: "fd00:7::2")!, port: 0),
                                             destination: IPEndpoint(address: IPAddress(parsing: "fd00::ffff:1")!, port: 0)),
                            direction: .inbound, length: 64, tcpFlags: [], capture: nil)
        let other = PacketMeta(timestamp: 1,
                               flowKey: FlowKey(proto: .other,
                                                source: IPEndpoint(address: IPAddress(parsing: "198.18.0.1")!, port: 0),
                                                destination: IPEndpoint(address: IPAddress(parsing: "198.18.0.2")!, port: 0)),
                               direction: .inbound, length: UInt32.max, tcpFlags: [], capture: nil)
        for meta in [v4, v6, other] { producer.push(meta) }
        let drained = try consumer.drain(max: 8).map { try PacketMeta(packed: $0) }
        #expect(drained == [v4, v6, other])
    }

    @Test("the slot layout is the spec's: little-endian fields at their offsets")
    func slotLayout() {
        var slot = [UInt8](repeating: 0xAA, count: 64)
        let record = PackedPacketMeta(timestamp: 0x0102_0304_0506_0708, protoAndDirection: 0x11, ipVersion: 4,
                                      tcpFlags: 0x12, portA: 0x3344, portB: 0x5566,
                                      addrA: PackedAddress(IPAddress(parsing: "10.7.0.2")!),
                                      addrB: PackedAddress(IPAddress(parsing: "198.18.0.9")!),
                                      length: 0x0A0B_0C0D,
                                      capture: CaptureLocation(fileSequence: 0x2122_2324, recordOffset: 0x18))
        slot.withUnsafeMutableBytes { record.store(to: $0.baseAddress!) }
        let expected: [UInt8] = [0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,   // timestamp
                                 0x11, 0x04, 0x12, 0x00, 0x44, 0x33, 0x66, 0x55,   // codes, ports
                                 10, 7, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // addrA
                                 198, 18, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // addrB
                                 0x0D, 0x0C, 0x0B, 0x0A,                           // length
                                 0x18, 0, 0, 0, 0, 0, 0, 0,                        // record offset
                                 0x24, 0x23, 0x22, 0x21]                           // file sequence
        #expect(slot == expected)
        #expect(slot.withUnsafeBytes { PackedPacketMeta.load(from: $0.baseAddress!) } == record)
    }

    @Test("a record offset of 0 reads as not captured, whatever the sequence says")
    func captureSentinel() {
        var slot = [UInt8](repeating: 0, count: 64)
        slot[60] = 9   // a sequence with no offset names nothing
        #expect(slot.withUnsafeBytes { PackedPacketMeta.load(from: $0.baseAddress!) }.capture == nil)
    }

    @Test("a slot that names no packet is refused with its reason")
    func undecodableSlot() {
        var record = RingProbe.record(0)
        record.ipVersion = 5
        #expect(throws: PackedPacketMetaError.unknownIPVersion(5)) { try PacketMeta(packed: record) }
        record = RingProbe.record(0)
        record.protoAndDirection = 0x70
        #expect(throws: PackedPacketMetaError.unknownProtocolCode(7)) { try PacketMeta(packed: record) }
        record.protoAndDirection = 0x02
        #expect(throws: PackedPacketMetaError.unknownDirection(2)) { try PacketMeta(packed: record) }
        record = RingProbe.record(0)
        record.localEnd = 3
        #expect(throws: PackedPacketMetaError.unknownLocalEnd(3)) { try PacketMeta(packed: record) }
    }

    @Test("the machine's end of a packet's flow travels in byte 11 (1: endpoint A, 2: endpoint B, 0: not said) and comes back")
    func localEndTravels() throws {
        let a = IPEndpoint(address: IPAddress(parsing: "198.18.80.1")!, port: 50_000)
        let b = IPEndpoint(address: IPAddress(parsing: "198.18.81.2")!, port: 443)
        let key = FlowKey(proto: .tcp, source: a, destination: b)
        for (end, byte) in [(key.endpointA, UInt8(1)), (key.endpointB, 2), (nil, 0)] as [(IPEndpoint?, UInt8)] {
            let meta = PacketMeta(timestamp: 1, flowKey: key, direction: .outbound, length: 60, tcpFlags: [], capture: nil, localEnd: end)
            var slot = [UInt8](repeating: 0xAA, count: 64)
            slot.withUnsafeMutableBytes { PackedPacketMeta(meta).store(to: $0.baseAddress!) }
            #expect(slot[11] == byte)
            #expect(try slot.withUnsafeBytes { try PacketMeta(packed: PackedPacketMeta.load(from: $0.baseAddress!)) } == meta)
        }
    }

    @Test("a full ring drops and counts, and never clobbers an unread slot")
    func overflow() throws {
        let producer = try RingBufferProducer(fileURL: ringURL, slotCount: 8)
        let consumer = try RingBufferConsumer(fileURL: ringURL)
        let accepted = (0..<20).filter { producer.push(RingProbe.record(UInt64($0))) }
        #expect(accepted == Array(0..<8))
        #expect(consumer.droppedCount() == 12)
        #expect(producer.droppedCount() == 12)
        #expect(consumer.drain(max: 3).map(\.timestamp) == [0, 1, 2])
        #expect(producer.push(RingProbe.record(100)))
        #expect(producer.push(RingProbe.record(101)))
        #expect(producer.push(RingProbe.record(102)))
        #expect(!producer.push(RingProbe.record(103)))
        #expect(consumer.drain(max: 100).map(\.timestamp) == [3, 4, 5, 6, 7, 100, 101, 102])
        #expect(consumer.droppedCount() == 13)
    }

    @Test("indices keep counting past the slot count: the ring wraps many times")
    func wrapsManyTimes() throws {
        let producer = try RingBufferProducer(fileURL: ringURL, slotCount: 4)
        let consumer = try RingBufferConsumer(fileURL: ringURL)
        var received: [UInt64] = []
        for index in 0..<1000 {
            producer.push(RingProbe.record(UInt64(index)))
            if index % 3 == 2 { received += consumer.drain(max: 4).map(\.timestamp) }
        }
        received += consumer.drain(max: 4).map(\.timestamp)
        #expect(received == Array(0..<1000))
    }

    @Test("the producer refuses geometries the spec forbids")
    func producerGeometry() {
        #expect(throws: IPCError.self) { try RingBufferProducer(fileURL: ringURL, slotCount: 3) }
        #expect(throws: IPCError.self) { try RingBufferProducer(fileURL: ringURL, slotCount: 0) }
        #expect(throws: IPCError.self) { try RingBufferProducer(fileURL: ringURL, slotCount: 8, slotSize: 32) }
        #expect(throws: IPCError.self) { try RingBufferProducer(fileURL: ringURL, slotCount: 8, slotSize: 100) }
        #expect(throws: IPCError.self) { try RingBufferProducer(fileURL: ringURL, slotCount: 1 << 30) }
        #expect(!FileManager.default.fileExists(atPath: ringURL.path))
    }

    @Test("a larger slot keeps the record at its start and the geometry in the header")
    func largerSlots() throws {
        let producer = try RingBufferProducer(fileURL: ringURL, slotCount: 16, slotSize: 128)
        let consumer = try RingBufferConsumer(fileURL: ringURL)
        #expect(consumer.slotCount == 16)
        for index in 0..<16 { producer.push(RingProbe.record(UInt64(index))) }
        #expect(consumer.drain(max: 16).map(\.timestamp) == Array(0..<16))
        let size = try FileManager.default.attributesOfItem(atPath: ringURL.path)[.size] as? Int
        #expect(size == 64 + 16 * 128)
    }

    @Test("the consumer rejects a header that is not a ring of ours", arguments: [
        ("magic", 0, [UInt8](repeating: 0, count: 4)),
        ("version", 4, [2, 0, 0, 0]),
        ("slot count not a power of two", 12, [3, 0, 0, 0]),
        ("slot too small", 8, [32, 0, 0, 0]),
    ] as [(String, Int, [UInt8])])
    func badHeader(label: String, offset: Int, bytes: [UInt8]) throws {
        _ = label
        let producer = try RingBufferProducer(fileURL: ringURL, slotCount: 8)
        producer.close()
        var contents = try [UInt8](Data(contentsOf: ringURL))
        contents.replaceSubrange(offset..<offset + bytes.count, with: bytes)
        try Data(contents).write(to: ringURL)
        #expect {
            try RingBufferConsumer(fileURL: ringURL)
        } throws: { error in
            if case .badHeader = error as? IPCError { return true }
            return false
        }
    }

    @Test("the consumer rejects a file cut short or grown, and a file too short for a header")
    func badSizes() throws {
        let producer = try RingBufferProducer(fileURL: ringURL, slotCount: 8)
        producer.close()
        let whole = try Data(contentsOf: ringURL)
        for contents in [whole.prefix(whole.count - 1), whole + [0], whole.prefix(10), Data()] {
            try contents.write(to: ringURL)
            #expect {
                try RingBufferConsumer(fileURL: ringURL)
            } throws: { error in
                if case .badHeader = error as? IPCError { return true }
                return false
            }
        }
    }

    @Test("opening a ring that does not exist is an open failure, and creates nothing")
    func missingRing() {
        #expect(throws: IPCError.openFailed(path: ringURL.path, errno: ENOENT)) {
            try RingBufferConsumer(fileURL: ringURL)
        }
        #expect(!FileManager.default.fileExists(atPath: RingLock.path(forRing: ringURL.path)))
    }

    @Test("a second producer is refused while the first feeds the ring, and takes over once it closed")
    func oneProducerAtATime() throws {
        let first = try RingBufferProducer(fileURL: ringURL, slotCount: 8)
        #expect(throws: IPCError.ringInUse(path: ringURL.path)) {
            try RingBufferProducer(fileURL: ringURL, slotCount: 8)
        }
        #expect(first.push(RingProbe.record(1)))
        first.close()
        let second = try RingBufferProducer(fileURL: ringURL, slotCount: 8)
        #expect(second.generation == first.generation + 1)
    }

    @Test("a new session's ring starts empty with nothing dropped, and its file is private")
    func freshSession() throws {
        let first = try RingBufferProducer(fileURL: ringURL, slotCount: 4)
        for index in 0..<10 { first.push(RingProbe.record(UInt64(index))) }
        first.close()
        _ = try RingBufferProducer(fileURL: ringURL, slotCount: 4)
        let consumer = try RingBufferConsumer(fileURL: ringURL)
        #expect(consumer.drain(max: 10).isEmpty)
        #expect(consumer.droppedCount() == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: ringURL.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(Set(leftovers) == ["live.ring", "live.ring.lock"])
    }

    @Test("a consumer of the previous session drains it, then follows the new one: 5 000 records, none lost or repeated")
    func reattachAcrossSessions() throws {
        let first = try RingBufferProducer(fileURL: ringURL, slotCount: 4096)
        let consumer = try RingBufferConsumer(fileURL: ringURL)
        #expect(consumer.generation == first.generation)
        for index in 0..<2500 { #expect(first.push(RingProbe.record(UInt64(index)))) }
        var received = consumer.drain(max: 1000).map(\.timestamp)
        first.close()
        #expect(consumer.sessionState == .closed)

        let second = try RingBufferProducer(fileURL: ringURL, slotCount: 8192)
        for index in 2500..<5000 { #expect(second.push(RingProbe.record(UInt64(index)))) }
        #expect(consumer.sessionState == .superseded)
        while true {
            let batch = consumer.drain(max: 700)
            if batch.isEmpty { break }
            received += batch.map(\.timestamp)
        }
        #expect(received == Array(0..<5000))
        #expect(consumer.generation == second.generation)
        #expect(consumer.slotCount == 8192)
        #expect(consumer.reattachCount == 1)
    }

    @Test("explicit reattach is a no-op while the path still names the same file")
    func reattachNoOp() throws {
        let producer = try RingBufferProducer(fileURL: ringURL, slotCount: 8)
        let consumer = try RingBufferConsumer(fileURL: ringURL)
        #expect(try consumer.reattach() == false)
        producer.push(RingProbe.record(5))
        #expect(consumer.drain(max: 1).map(\.timestamp) == [5])
    }

    @Test("after close, pushes and drains do nothing")
    func closed() throws {
        let producer = try RingBufferProducer(fileURL: ringURL, slotCount: 8)
        let consumer = try RingBufferConsumer(fileURL: ringURL)
        producer.push(RingProbe.record(0))
        consumer.close()
        #expect(consumer.drain(max: 8).isEmpty)
        producer.close()
        #expect(!producer.push(RingProbe.record(1)))
        #expect(producer.droppedCount() == 0)
    }

    @Test("the data-directory initialisers meet at the one ring file name")
    func dataDirectory() throws {
        let data = directory.url.appendingPathComponent("data")
        let producer = try RingBufferProducer(dataDirectory: data, slotCount: 8)
        let consumer = try RingBufferConsumer(dataDirectory: data)
        producer.push(RingProbe.record(3))
        #expect(consumer.drain(max: 8).map(\.timestamp) == [3])
        #expect(producer.path == DataDirectoryLayout.ring(in: data).path)
        let mode = try FileManager.default.attributesOfItem(atPath: data.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }
}
