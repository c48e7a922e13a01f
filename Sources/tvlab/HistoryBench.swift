import Bench
import Foundation
import App
import Shared

/// `tvlab bench history`: fills a temporary history (`HistoryBenchFill`) and times, in one run,
/// what the timeline and the inspector ask of it — each several times, min / median / max —
/// against the issue's targets. Not a test: figures for a person to read.
enum HistoryBench {
    static let repetitions = 7

    struct Timing {
        let name: String
        let targetMilliseconds: Double
        let milliseconds: [Double]
        let note: String

        var sorted: [Double] { milliseconds.sorted() }
        var median: Double { BenchStatistics.median(milliseconds) ?? .nan }
        var met: Bool { median <= targetMilliseconds }
    }

    static func run(flows: Int, packets: Int, json: Bool) async throws(Failure) {
        do {
            try await measure(flows: flows, packets: packets, json: json)
        } catch {
            throw (error as? Failure) ?? Failure("bench history: \(error)")
        }
    }

    private static func measure(flows: Int, packets: Int, json: Bool) async throws {
        let directory = try FileSystem.makeTemporaryDirectory(in: FileSystem.temporaryParent, prefix: "tvlab-history-")
        defer { FileSystem.removeTree(directory) }
        let fill = HistoryBenchFill(flows: flows, packets: packets)
        Console.progress("filling a history with \(flows) connections and \(packets) packets over a week (the store's write path)…")
        let (store, written) = try await fill.write(into: URL(fileURLWithPath: directory), progress: Console.progress)
        let size = await store.totalBytesOnDisk()
        Console.progress(String(format: "  filled in %.1f s, %.0f MiB on disk", written.seconds, Double(size) / 1_048_576))
        let reader = HistoryReader(store: store)
        var timings: [Timing] = []

        func time(_ name: String, target: Double, note: @autoclosure () -> String = "",
                  _ work: () async throws -> Void) async rethrows {
            var runs: [Double] = []
            for _ in 0..<repetitions {
                let clock = Stopwatch()
                try await work()
                runs.append(clock.elapsedSeconds * 1_000)
            }
            timings.append(Timing(name: name, targetMilliseconds: target, milliseconds: runs, note: note()))
            Console.progress(String(format: "  %@: median %.2f ms", name, BenchStatistics.median(runs) ?? .nan))
        }

        try await time("timeline: first page (100 connections)", target: 20) {
            let fresh = HistoryReader(store: store)
            await fresh.refresh()
            guard await fresh.snapshot.flows.count == 100 else { throw Failure("the first page was not 100 connections") }
        }
        var chained = HistorySnapshot()
        try await time("timeline: filtered page chaining 8 queries", target: 100, note: "\(chained.queriesInLastLoad) queries, "
                       + "\(chained.scannedInLastLoad) scanned, \(chained.flowsInLastLoad) found") {
            let fresh = HistoryReader(store: store)
            await fresh.apply(HistoryFilter(searchText: HistoryBenchFill.rarePrefix))
            chained = await fresh.snapshot
            guard chained.state == .loaded else { throw Failure("the filtered page failed: \(chained.state)") }
        }
        var axis = ActivityAxis.empty
        try await time("axis: whole history", target: 50) { axis = try await reader.activity() }
        axis = try await reader.activity()
        var zoom = ScrubZoom.wholeHistory
        for level in 1...3 {
            guard let busiest = axis.bars.filter({ reader.canZoom(into: $0) }).max(by: { $0.packetCount < $1.packetCount }) else { break }
            zoom.zoom(into: busiest.range)
            let range = busiest.range
            let width = ActivityChart.widthName(busiest.duration)
            try await time("axis: zoom level \(level) (into a \(width) bar)", target: 50) { axis = try await reader.activity(in: range) }
        }
        var inspected = 0
        try await time("inspector: packets of a flow with 10 000", target: 20, note: "\(inspected) read (the cap)") {
            inspected = try await reader.packets(forFlow: written.inspectedFlowID).count
        }
        for extra in HistoryBenchExtras.measurements(store: store, reader: reader, inspectedFlowID: written.inspectedFlowID,
                                                     dataDirectory: directory) {
            try await time(extra.name, target: extra.targetMilliseconds, extra.work)
        }
        await store.close()
        print(json ? Self.json(timings, flows: flows, packets: packets, fillSeconds: written.seconds, bytes: size)
                   : Self.table(timings, flows: flows, packets: packets, fillSeconds: written.seconds, bytes: size))
    }

    static func table(_ timings: [Timing], flows: Int, packets: Int, fillSeconds: Double, bytes: Int64) -> String {
        var lines = [String(format: "history of %d connections, %d packets (filled in %.1f s through FlowStore.write, %.0f MiB)",
                            flows, packets, fillSeconds, Double(bytes) / 1_048_576),
                     "\(repetitions) runs each; milliseconds"]
        for timing in timings {
            let sorted = timing.sorted
            lines.append(String(format: "  %-48@ min %8.2f  median %8.2f  max %8.2f  target %6.0f  %@%@",
                                timing.name, sorted.first ?? .nan, timing.median, sorted.last ?? .nan, timing.targetMilliseconds,
                                timing.met ? "met" : "MISSED", timing.note.isEmpty ? "" : "  (\(timing.note))"))
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ timings: [Timing], flows: Int, packets: Int, fillSeconds: Double, bytes: Int64) -> String {
        var out = JSONWriter()
        out.beginObject()
        out.number("flows", flows)
        out.number("packets", packets)
        out.number("fillSeconds", fillSeconds, decimals: 1)
        out.number("databaseBytes", Int(bytes))
        out.beginArray("timings")
        for timing in timings {
            out.beginObject()
            out.string("name", timing.name)
            out.number("minMilliseconds", timing.sorted.first ?? .nan, decimals: 3)
            out.number("medianMilliseconds", timing.median, decimals: 3)
            out.number("maxMilliseconds", timing.sorted.last ?? .nan, decimals: 3)
            out.number("targetMilliseconds", timing.targetMilliseconds, decimals: 0)
            out.bool("met", timing.met)
            out.string("note", timing.note)
            out.endObject()
        }
        out.endArray()
        out.endObject()
        return out.writer.string
    }
}
