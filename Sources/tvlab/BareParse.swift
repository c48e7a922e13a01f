import CAllocationCounter
import Shared

/// The parser alone: every record already in memory, no I/O, no formatting.
enum BareParse {
    /// Where each record sits in `CaptureInMemory.bytes`.
    struct Span {
        let offset: Int
        let length: Int
        let originalLength: Int
    }

    /// A capture's records, copied into one contiguous buffer.
    struct CaptureInMemory {
        var bytes: [UInt8] = []
        var spans: [Span] = []
    }

    struct Measurement {
        let packetsPerSecond: Double
        let passes: Int
        let seconds: Double
        let allocations: UInt64
        let allocationsPerPacket: Double
        let malformed: Int
        /// Derived from every result, so the optimizer cannot drop the parsing; shown on stderr.
        let checksum: Int
    }

    static func load(_ path: String) throws(Failure) -> CaptureInMemory {
        let reader: PcapFileReader
        do { reader = try PcapFileReader(path: path) } catch { throw Failure("\(path): \(error)") }
        var capture = CaptureInMemory()
        capture.bytes.reserveCapacity(reader.fileSize)
        do throws(PcapFileReadError<Never>) {
            try reader.forEachRecord { record in
                capture.spans.append(Span(offset: capture.bytes.count, length: record.bytes.count,
                                          originalLength: record.originalLength))
                capture.bytes.append(contentsOf: record.bytes)
            }
        } catch {
            switch error {
            case let .corrupt(readError, index): throw Failure("\(path): damaged at record \(index + 1): \(readError)")
            }
        }
        return capture
    }

    /// Counts allocations over one pass, then repeats passes until at least `minimumSeconds` pass.
    static func measure(_ capture: CaptureInMemory, minimumSeconds: Double) -> Measurement {
        capture.bytes.withUnsafeBytes { bytes in
            capture.spans.withUnsafeBufferPointer { spans in
                let before = cac_allocation_count()
                let first = pass(bytes, spans)
                let allocations = cac_allocation_count() &- before
                var checksum = first.checksum
                var passes = 0
                let stopwatch = Stopwatch()
                var seconds = 0.0
                repeat {
                    checksum &+= pass(bytes, spans).checksum
                    passes += 1
                    seconds = stopwatch.elapsedSeconds
                } while seconds < minimumSeconds
                let packets = Double(spans.count)
                return Measurement(packetsPerSecond: packets * Double(passes) / seconds, passes: passes,
                                   seconds: seconds, allocations: allocations,
                                   allocationsPerPacket: Double(allocations) / max(packets, 1),
                                   malformed: first.malformed, checksum: checksum)
            }
        }
    }

    /// One parse of every record, folding ports and lengths into a sum.
    @inline(never)
    static func pass(_ bytes: UnsafeRawBufferPointer, _ spans: UnsafeBufferPointer<Span>) -> (checksum: Int, malformed: Int) {
        var checksum = 0
        var malformed = 0
        for span in spans {
            let record = UnsafeRawBufferPointer(rebasing: bytes[span.offset..<(span.offset + span.length)])
            do {
                let packet = try PacketParser.parse(record, originalLength: span.originalLength)
                checksum &+= Int(packet.source.port) &+ Int(packet.destination.port) &+ packet.ip.totalLength
            } catch {
                malformed += 1
            }
        }
        return (checksum, malformed)
    }
}
