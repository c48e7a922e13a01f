import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// The retention size limit is a ceiling under a real `tunnelvision run`: 400 MiB captured in full
/// through a 256 MiB limit never takes the captures folder over it, sampled all through the run,
/// and the summary lists only the capture files still there, naming the ones retention deleted.
/// Needs root.
@Suite("The retention size limit, under a real run", .serialized)
struct RetentionCeilingTests {
    static let limit: UInt64 = 256 << 20
    static let download = 400 << 20

    /// The bytes the capture files hold now, by `stat` (a file deleted between the listing and
    /// its `stat` is not counted: it is gone).
    static func captureBytes(_ folder: URL) -> UInt64 {
        ((try? CaptureDirectory.fileInfos(in: folder)) ?? []).reduce(0) { $0 + $1.byteCount }
    }

    @Test("400 MiB captured under a 256 MiB limit: the folder never passes it, and the summary lists what is there and counts what went")
    func theLimitIsACeiling() throws {
        let lab = try Lab()
        defer { lab.remove() }
        let work = TemporaryDirectory("retention-ceiling")
        let www = work.url.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
        // A sparse file: 400 MiB of zeros served without being written.
        try ExternalCommand.run(["truncate", "-s", "\(Self.download)", www.appendingPathComponent("big.bin").path])
        let server = try LabScripts.start([LabScripts.python, "-m", "http.server", "8080", "--bind", Lab.serverIPv4,
                                           "--directory", www.path], in: lab.server)
        defer { LabScripts.stop(server) }
        try LabScripts.waitForListener(Lab.serverIPv4, 8080, from: lab.host)

        let tunnelvision = try BuiltProduct.url("tunnelvision").path
        let data = work.url.appendingPathComponent("data")
        let set = try BuiltProduct.run(URL(fileURLWithPath: tunnelvision), ["settings", "set", "retention-size", "256m", "--data-dir", data.path])
        #expect(set.status == 0, "\(set.err)")
        let summaryFile = work.url.appendingPathComponent("summary.json")
        let errors = work.url.appendingPathComponent("run.err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let run = Process()
        run.executableURL = URL(fileURLWithPath: ExternalCommand.locate("ip") ?? "/usr/sbin/ip")
        run.arguments = Array(lab.host.command([tunnelvision, "run", "--data-dir", data.path, "--json-summary", summaryFile.path, "--",
                                                "curl", "-sS", "--max-time", "240", "-o", "/dev/null",
                                                "http://\(Lab.serverIPv4):8080/big.bin"]).dropFirst())
        run.standardOutput = FileHandle.nullDevice
        run.standardError = try FileHandle(forWritingTo: errors)
        try run.run()
        defer { LabScripts.stop(run) }

        // Sampled every few milliseconds until the run ends (bounded by curl's own limit).
        let captures = DataDirectoryLayout.captures(in: data)
        var peak: UInt64 = 0
        var samples = 0
        let deadline = ContinuousClock.now + .seconds(300)
        while run.isRunning, ContinuousClock.now < deadline {
            peak = max(peak, Self.captureBytes(captures))
            samples += 1
            usleep(2_000)
        }
        run.waitUntilExit()
        let said = try String(contentsOf: errors, encoding: .utf8)
        #expect(run.terminationStatus == 0, "\(said)")
        #expect(samples > 100)
        #expect(peak <= Self.limit, "the captures held \(peak) bytes at their most")
        #expect(Self.captureBytes(captures) <= Self.limit)
        // The limit was reached and held: the captures stay near it, not far below.
        #expect(peak > Self.limit - 2 * RetentionPlanner.rotationBytes)

        let summary = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: summaryFile)) as? [String: Any])
        let listed = try #require(summary["captureFiles"] as? [[String: Any]]).compactMap { $0["path"] as? String }
        let gone = try #require(summary["captureFilesGone"] as? [String])
        #expect(!listed.isEmpty && listed.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        #expect(gone.count >= 2 && gone.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
        #expect(Set(listed).isDisjoint(with: gone))
        #expect(said.contains("\(gone.count) earlier capture files of this run no longer there"))
        #expect(!gone.contains { said.contains($0) })
    }
}
