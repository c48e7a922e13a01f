import Foundation
import Shared

/// `tvlab bench ring` and `tvlab bench store`: the two halves of the tunnel's output path — the
/// live feed across processes and the durable history — each measured in one run and printed
/// against its target.
enum IPCBenchCommand {
    static func runRing(records: UInt64, slots: Int, json: Bool) throws(Failure) {
        let directory = try FileSystem.makeTemporaryDirectory(in: FileSystem.temporaryParent, prefix: "tvlab-ring-")
        defer { FileSystem.removeTree(directory) }
        Console.progress("moving \(records) records through a \(slots)-slot ring from a child process…")
        let figures = try RingBench.measure(records: records, slots: slots, in: directory)
        let rate = Int64(figures.recordsPerSecond.rounded())
        let bandwidth = figures.bytesPerSecond / 1e9
        if json {
            print("{\"records\":\(records),\"slots\":\(slots),\"seconds\":\(figures.seconds),\"recordsPerSecond\":\(rate),"
                  + "\"bytesPerSecond\":\(Int64(figures.bytesPerSecond.rounded())),"
                  + "\"target\":\(Int64(RingBench.target)),\"met\":\(figures.met)}")
        } else {
            print("tvlab bench ring — \(records) records of \(PackedPacketMeta.packedByteCount) B through \(slots) slots, producer and consumer in two processes\n")
            print(String(format: "  %.3f s", figures.seconds) + "  →  \(grouped(rate)) records/s"
                  + String(format: "  (%.2f GB/s of slots)", bandwidth)
                  + "  target ≥ \(grouped(Int64(RingBench.target)))  " + (figures.met ? "met" : "NOT met"))
        }
    }

    static let storeTarget = 300_000.0

    static func runStore(packets: Int, batchSize: Int, json: Bool) async throws(Failure) {
        let directory = try FileSystem.makeTemporaryDirectory(in: FileSystem.temporaryParent, prefix: "tvlab-store-")
        defer { FileSystem.removeTree(directory) }
        Console.progress("writing \(packets) packets into a fresh FlowStore in batches of \(batchSize)…")
        let figures: StoreBenchmarkFigures
        do {
            figures = try await measureStoreWrites(packets: packets, batchSize: batchSize,
                                                   in: URL(fileURLWithPath: directory))
        } catch {
            throw Failure("bench store: \(error)")
        }
        let rate = Int64(figures.packetsPerSecond.rounded())
        let met = figures.packetsPerSecond >= storeTarget
        if json {
            print("{\"packets\":\(packets),\"batchSize\":\(batchSize),\"batches\":\(figures.batches),"
                  + "\"seconds\":\(figures.seconds),\"packetsPerSecond\":\(rate),"
                  + "\"target\":\(Int64(storeTarget)),\"met\":\(met)}")
        } else {
            print("tvlab bench store — \(packets) packets in \(figures.batches) batches of \(batchSize), one transaction each\n")
            print(String(format: "  %.3f s", figures.seconds) + "  →  \(grouped(rate)) packets/s"
                  + "  target ≥ \(grouped(Int64(storeTarget)))  " + (met ? "met" : "NOT met"))
        }
    }

    /// A whole number with thousands separators.
    static func grouped(_ value: Int64) -> String {
        var digits = String(value)
        var result = ""
        while digits.count > 3 {
            result = "," + digits.suffix(3) + result
            digits.removeLast(3)
        }
        return digits + result
    }
}
