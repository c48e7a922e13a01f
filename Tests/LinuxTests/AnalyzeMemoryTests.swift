import Foundation
import Linux
import PacketTunnel
import TestSupport
import Testing

/// Issue 12, "Offline memory is bounded too": `tunnelvision analyze` of real capture files written
/// by Python, its peak resident memory measured as the kernel counts it (`ru_maxrss` of the child),
/// its report checked with python3's json and against tshark.
@Suite("tunnelvision analyze stays within its memory bounds", .serialized)
struct AnalyzeMemoryTests {
    /// The gap capture's shape, as `AnalyzeMemoryScripts.gapCapture` writes it.
    static let outOfOrderMegabytes = 48
    static let segmentBytes = 1448
    static let clientHelloBytes = 88
    /// The program, two workers' pages of the capture near their reading, and what they hold.
    static let gapPeakBound = 48 << 20

    @Test("out-of-order data behind a gap is held only as far as the scanners read: a small peak, the drop reported")
    func outOfOrderDataBehindAGap() throws {
        let directory = TemporaryDirectory("analyze-gap")
        let capture = directory.url.appendingPathComponent("gap.pcap")
        try Self.python(AnalyzeMemoryScripts.gapCapture, [capture.path, "\(Self.outOfOrderMegabytes)"])
        let captureBytes = try #require(try FileManager.default.attributesOfItem(atPath: capture.path)[.size] as? Int)

        let report = directory.url.appendingPathComponent("report.json")
        let run = try Self.peakMemory(of: ["analyze", capture.path, "--json"], output: report)
        print("analyze of a \(captureBytes >> 20) MiB capture with a gap: peak resident \(run.peakBytes >> 20) MiB")
        try #require(run.status == 0)
        // Before the bound every page of the mapped capture stayed resident: 76 MiB here, against
        // about 24 MiB for the program itself.
        #expect(run.peakBytes < Self.gapPeakBound, "peak \(run.peakBytes >> 20) MiB for a \(captureBytes >> 20) MiB capture")

        // The drop, by hand: the stream's first `reach` bytes are wanted; the out-of-order data
        // starts after the 88-byte hello, so the segments starting before `reach` are held (the
        // last one in part, so it counts among those not held) and the rest are not.
        let reach = TCPFlowScanners.clientStreamReach
        let total = Self.outOfOrderMegabytes << 20
        let segments = (total + Self.segmentBytes - 1) / Self.segmentBytes
        let heldSegments = (reach - Self.clientHelloBytes + Self.segmentBytes - 1) / Self.segmentBytes
        let notHeld = try Self.python(#"""
            import json, sys
            drops = json.load(open(sys.argv[1]))["outOfOrderNotHeld"]
            print(drops["segments"], drops["bytes"])
            """#, [report.path])
        #expect(notHeld == "\(segments - heldSegments + 1) \(total - (reach - Self.clientHelloBytes))")

        // What it still reads: the hello sent again fills the gap, and tshark agrees on the rest.
        let decoded = try JSONDecoder().decode(AnalyzeReport.self, from: Data(contentsOf: report))
        let conversation = try #require(decoded.conversations.first)
        #expect(decoded.conversations.count == 1)
        #expect(conversation.sni == "gap.example")
        #expect(conversation.clientOffer?.alpn == ["h2"])
        let frames = try Tshark.fields(["ip.src", "ip.len", "tls.handshake.type", "tls.handshake.extensions.supported_version",
                                        "tls.handshake.ciphersuite"], of: capture)
        let fromClient = frames.filter { $0["ip.src"] == ["198.18.0.1"] }
        #expect(decoded.packets == frames.count)
        #expect(conversation.packets == frames.count)
        #expect(conversation.bytesFromClient == fromClient.reduce(0) { $0 + Int($1["ip.len"]![0])! })
        #expect(conversation.bytesFromServer == frames.filter { $0["ip.src"] == ["198.18.0.2"] }
            .reduce(0) { $0 + Int($1["ip.len"]![0])! })
        let serverHello = try #require(frames.first { $0["tls.handshake.type"] == ["2"] })
        #expect(conversation.serverAnswer?.version == Int(serverHello["tls.handshake.extensions.supported_version"]![0].dropFirst(2), radix: 16))
        #expect(conversation.serverAnswer?.cipherSuite == Int(serverHello["tls.handshake.ciphersuite"]![0].dropFirst(2), radix: 16))

        let text = try Self.peakMemory(of: ["analyze", capture.path], output: directory.url.appendingPathComponent("report.txt"))
        try #require(text.status == 0)
        let printed = try String(contentsOf: directory.url.appendingPathComponent("report.txt"), encoding: .utf8)
        #expect(printed.contains("out-of-order data beyond what the scanners read: \(segments - heldSegments + 1) segments, "
                                 + "\(total - (reach - Self.clientHelloBytes)) bytes not held"))
    }

    /// Flows in the budget test: `TUNNELVISION_ANALYZE_FLOWS` (scripts/analyze-memory sets
    /// 1 000 000), else a count that keeps the test short.
    static var budgetFlows: Int {
        ProcessInfo.processInfo.environment["TUNNELVISION_ANALYZE_FLOWS"].flatMap { Int($0) } ?? 50_000
    }

    @Test("a capture of many one-packet flows stays within the stated budget per conversation")
    func manyFlowsStayWithinTheBudget() throws {
        let flows = Self.budgetFlows
        let directory = TemporaryDirectory("analyze-flows")
        let capture = directory.url.appendingPathComponent("flows.pcap")
        try Self.python(AnalyzeMemoryScripts.synFlows, [capture.path, "\(flows)"])
        let report = directory.url.appendingPathComponent("report.json")
        let workers = 2
        let run = try Self.peakMemory(of: ["analyze", capture.path, "--json", "--workers", "\(workers)"], output: report)
        let budget = CaptureAnalysis.memoryBudget(conversations: flows, workers: workers)
        print("analyze of \(flows) flows with \(workers) workers: peak resident \(run.peakBytes >> 20) MiB, "
              + "\(run.peakBytes / flows) bytes a flow; budget \(budget >> 20) MiB")
        try #require(run.status == 0)
        #expect(run.peakBytes <= budget)
        let counted = try Self.python(#"""
            import json, sys
            report = json.load(open(sys.argv[1]))
            print(report["packets"], len(report["conversations"]), report["outOfOrderNotHeld"]["segments"])
            """#, [report.path])
        #expect(counted == "\(flows) \(flows) 0")
    }

    /// Runs a Python program; returns its standard output, trimmed.
    @discardableResult
    static func python(_ script: String, _ arguments: [String]) throws -> String {
        let result = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script] + arguments)
        try #require(result.status == 0, "python3 exited \(result.status): \(result.err)")
        return result.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `tunnelvision` with `arguments`, its standard output into `output`; its exit status
    /// and peak resident memory.
    static func peakMemory(of arguments: [String], output: URL) throws -> (status: Int32, peakBytes: Int) {
        let product = try BuiltProduct.url("tunnelvision")
        let line = try python(AnalyzeMemoryScripts.peakMemory, [output.path, product.path] + arguments)
        let words = line.split(separator: " ")
        let status = try #require(words.first.flatMap { Int32($0) }, "no status in \(line)")
        let peak = try #require(words.last.flatMap { Int($0) }, "no peak in \(line)")
        return (status, peak)
    }
}
