#if canImport(Glibc)
import Glibc
#endif
import App
import Bench
import Foundation
import Shared

/// `tvlab bench evidence`: an audit session of 20 000 connections and 400 000 captured packets
/// (`EvidenceBenchFill`) exported as an evidence bundle by the app's `EvidenceExporter`, timed
/// with its peak resident memory, and the findings of its connections timed alone; then where the
/// export's time goes, piece by piece, and what deflating the capture would cost. Not a test:
/// figures for a person to read, against the targets (export ≤ 3 s and ≤ 150 MB at its peak,
/// findings ≤ 200 ms).
enum EvidenceBench {
    static let help = """
    tvlab bench evidence [--flows N] [--packets M] [--json]

    Fills a temporary data directory with one ended audit session of N connections (default
    20000) and M packets (default 400000), every packet captured into .pcap files rotating at
    64 MB (about 229 MB in all), through FlowStore.write and PcapFileWriter; then
      1. the findings of its connections (FindingsClassifier), 7 runs: median (target 200 ms);
      2. the export (EvidenceExporter: documents, capture, manifest, zip), 3 runs: wall time
         (target 3 s) and the process's peak resident memory during them (VmHWM reset before
         the first; target 150 MB);
      3. the export's pieces timed alone: reading the connections, the four documents, reading
         the packets' rows, writing capture.pcapng, and zipping it stored, or deflated at zlib
         levels 1 and 6 (seconds and size).
    """

    static let repetitions = 7
    static let exports = 3

    static func run(flows: Int, packets: Int, json: Bool) async throws(Failure) {
        do {
            try await measure(flows: flows, packets: packets, json: json)
        } catch {
            throw (error as? Failure) ?? Failure("bench evidence: \(error)")
        }
    }

    struct Figures {
        var flows = 0, packets = 0
        var fillSeconds = 0.0
        var captureBytes: UInt64 = 0
        var zipBytes: UInt64 = 0
        var findingsMilliseconds: [Double] = []
        var exportSeconds: [Double] = []
        var residentBefore: UInt64 = 0
        var peakResident: UInt64 = 0
        var pieces: [(name: String, seconds: Double, note: String)] = []
    }

    private static func measure(flows: Int, packets: Int, json: Bool) async throws {
        let root = try FileSystem.makeTemporaryDirectory(in: FileSystem.temporaryParent, prefix: "tvlab-evidence-")
        defer { FileSystem.removeTree(root) }
        let data = URL(fileURLWithPath: root).appendingPathComponent("data")
        var figures = Figures()
        figures.flows = flows
        figures.packets = packets
        Console.progress("filling a session of \(flows) connections and \(packets) captured packets…")
        let written = try await EvidenceBenchFill(flows: flows, packets: packets).write(into: data, progress: Console.progress)
        figures.fillSeconds = written.seconds
        figures.captureBytes = written.captureBytes
        Console.progress(String(format: "  filled in %.1f s, %.0f MB of captures", written.seconds, Double(written.captureBytes) / 1e6))

        try await timeFindings(data, session: written.sessionID, into: &figures)

        let exporter = EvidenceExporter(dataDirectory: data)
        let destination = URL(fileURLWithPath: root).appendingPathComponent("exports")
        let before = try memory()
        figures.residentBefore = before.residentBytes
        try resetPeakMemory()
        for run in 0..<exports {
            let clock = Stopwatch()
            let result = try await exporter.export(sessionID: written.sessionID, to: destination,
                                                   exportedAt: Date(timeIntervalSinceNow: Double(run)))
            figures.exportSeconds.append(clock.elapsedSeconds)
            figures.zipBytes = result.byteCount
            Console.progress(String(format: "  export %d: %.2f s, %.0f MB zip, %d of %d packets written", run + 1, clock.elapsedSeconds,
                                    Double(result.byteCount) / 1e6, result.capture.written, result.capture.recorded))
            try FileManager.default.removeItem(at: result.url)
        }
        figures.peakResident = try memory().peakResidentBytes

        try await timePieces(data, session: written.sessionID, scratch: URL(fileURLWithPath: root), into: &figures)
        print(json ? Self.json(figures) : Self.table(figures))
    }

    private static func timeFindings(_ data: URL, session id: Int64, into figures: inout Figures) async throws {
        let store = try FlowStore(dataDirectory: data, origin: "tvlab bench evidence")
        guard let session = try await store.auditSession(id: id), let project = try await store.auditProject(id: session.projectID) else {
            throw Failure("bench evidence: the session is gone")
        }
        let flows = try await store.allFlows(inAuditSession: id)
        let markers = try await store.markers(forSession: id)
        await store.close()
        let policy = try RequirementCatalogueLibrary.catalogue(identifier: RequirementCatalogueLibrary.defaultIdentifier).policy
        var findings = 0
        for _ in 0..<repetitions {
            let clock = Stopwatch()
            findings = FindingsClassifier.classify(flows: flows, project: project, session: session, markers: markers, policy: policy)
                .findings.count
            figures.findingsMilliseconds.append(clock.elapsedSeconds * 1_000)
        }
        Console.progress(String(format: "  findings of %d connections: median %.1f ms (%d findings)", flows.count,
                                BenchStatistics.median(figures.findingsMilliseconds) ?? .nan, findings))
    }

    /// The export's steps one by one, as `EvidenceExporter` takes them, and the capture zipped
    /// each way.
    private static func timePieces(_ data: URL, session id: Int64, scratch: URL, into figures: inout Figures) async throws {
        func piece(_ name: String, note: String = "", _ work: () async throws -> Void) async rethrows {
            let clock = Stopwatch()
            try await work()
            figures.pieces.append((name, clock.elapsedSeconds, note))
        }
        let store = try FlowStore(dataDirectory: data, origin: "tvlab bench evidence")
        guard let session = try await store.auditSession(id: id), let project = try await store.auditProject(id: session.projectID) else {
            throw Failure("bench evidence: the session is gone")
        }
        let markers = try await store.markers(forSession: id)
        var flows: [StoredFlow] = []
        try await piece("read the connections (allFlows)") { flows = try await store.allFlows(inAuditSession: id) }
        let catalogue = try RequirementCatalogueLibrary.catalogue(identifier: RequirementCatalogueLibrary.defaultIdentifier)
        var findingIDs: [Int64: [String]] = [:]
        var documentBytes = 0
        try await piece("the four documents (EvidenceBundle)") {
            let bundle = try EvidenceBundle(project: project, session: session, markers: markers, flows: flows, catalogue: catalogue,
                                            exportedAt: Date())
            documentBytes = bundle.documents.map(\.bytes.count).reduce(0, +)
            findingIDs = bundle.findingIDs
        }
        figures.pieces[figures.pieces.count - 1].note = String(format: "%.1f MB", Double(documentBytes) / 1e6)
        let files = try CaptureDirectory.files(in: DataDirectoryLayout.captures(in: data))
        var counts: [SessionPacketCount] = []
        var rows: [UInt32: [SessionCapturedPacket]] = [:]
        try await piece("read the packets' rows (packetCounts, capturedPackets)") {
            counts = try await store.packetCounts(inAuditSession: id)
            for file in Set(counts.compactMap(\.fileSequence)).sorted() {
                rows[file] = try await store.capturedPackets(inAuditSession: id, fileSequence: file)
            }
        }
        await store.close()
        let capture = scratch.appendingPathComponent("capture.pcapng")
        try await piece("write capture.pcapng (EvidenceCaptureWriter, unsynced)") {
            let writer = try EvidenceCaptureWriter(destination: capture, captureFiles: files, session: session, findingIDs: findingIDs,
                                                   packetCounts: counts)
            for file in writer.filesToRead { try writer.write(fileSequence: file, packets: rows[file] ?? []) }
            _ = try writer.finish(sync: false)
        }
        rows = [:]
        for (name, method) in [("stored", ZipWriter.Method.stored), ("deflated, level 1", .deflated(level: 1)),
                               ("deflated, level 6", .deflated(level: 6))] {
            let archive = scratch.appendingPathComponent("capture-\(name.filter(\.isLetter)).zip")
            var size: UInt64 = 0
            try await piece("zip capture.pcapng \(name) (synced)") {
                let writer = try ZipWriter(url: archive, modified: Date())
                try writer.addFile("capture.pcapng", contentsOf: capture, method: method)
                size = try writer.finish()
            }
            figures.pieces[figures.pieces.count - 1].note = String(format: "%.1f MB", Double(size) / 1e6)
            try FileManager.default.removeItem(at: archive)
        }
        try FileManager.default.removeItem(at: capture)
    }

    static func memory() throws -> ProcessMemory {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8), let memory = ProcessMemory.read(status: text) else {
            throw Failure("bench evidence: /proc/self/status has no VmRSS or VmHWM")
        }
        return memory
    }

    /// Sets VmHWM back to the present VmRSS (proc(5), /proc/PID/clear_refs "5"): the peak that
    /// follows is the export's own.
    static func resetPeakMemory() throws {
        let descriptor = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure("open /proc/self/clear_refs", errno: errno) }
        defer { close(descriptor) }
        guard write(descriptor, "5", 1) == 1 else { throw Failure("reset the peak resident memory", errno: errno) }
    }

    static let exportTargetSeconds = 3.0
    static let memoryTargetBytes: UInt64 = 150_000_000
    static let findingsTargetMilliseconds = 200.0

    static func table(_ figures: Figures) -> String {
        let export = BenchStatistics.median(figures.exportSeconds) ?? .nan
        let findings = BenchStatistics.median(figures.findingsMilliseconds) ?? .nan
        var lines = [
            String(format: "evidence of a session of %d connections, %d packets (filled in %.0f s; %.0f MB of captures, a %.0f MB zip)",
                   figures.flows, figures.packets, figures.fillSeconds, Double(figures.captureBytes) / 1e6, Double(figures.zipBytes) / 1e6),
            String(format: "  findings (%d runs)   median %8.1f ms  min %.1f  max %.1f   target %.0f ms  %@", repetitions, findings,
                   figures.findingsMilliseconds.min() ?? .nan, figures.findingsMilliseconds.max() ?? .nan, findingsTargetMilliseconds,
                   findings <= findingsTargetMilliseconds ? "met" : "MISSED"),
            String(format: "  export (%d runs)     median %8.2f s   min %.2f  max %.2f   target %.0f s   %@", exports, export,
                   figures.exportSeconds.min() ?? .nan, figures.exportSeconds.max() ?? .nan, exportTargetSeconds,
                   export <= exportTargetSeconds ? "met" : "MISSED"),
            String(format: "  resident memory     %.0f MB before, %.0f MB at the exports' peak   target %.0f MB  %@",
                   Double(figures.residentBefore) / 1e6, Double(figures.peakResident) / 1e6, Double(memoryTargetBytes) / 1e6,
                   figures.peakResident <= memoryTargetBytes ? "met" : "MISSED"),
            "  the export's pieces, each alone:",
        ]
        for piece in figures.pieces {
            lines.append("    " + piece.name.padding(toLength: 58, withPad: " ", startingAt: 0)
                + String(format: " %6.2f s", piece.seconds) + (piece.note.isEmpty ? "" : "  (\(piece.note))"))
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ figures: Figures) -> String {
        var out = JSONWriter()
        out.beginObject()
        out.number("flows", figures.flows)
        out.number("packets", figures.packets)
        out.number("captureBytes", figures.captureBytes)
        out.number("zipBytes", figures.zipBytes)
        out.number("findingsMedianMilliseconds", BenchStatistics.median(figures.findingsMilliseconds) ?? .nan, decimals: 1)
        out.number("exportMedianSeconds", BenchStatistics.median(figures.exportSeconds) ?? .nan, decimals: 3)
        out.number("residentBytesBefore", figures.residentBefore)
        out.number("peakResidentBytes", figures.peakResident)
        out.beginArray("pieces")
        for piece in figures.pieces {
            out.beginObject()
            out.string("name", piece.name)
            out.number("seconds", piece.seconds, decimals: 3)
            out.string("note", piece.note)
            out.endObject()
        }
        out.endArray()
        out.endObject()
        return out.writer.string
    }
}
