import AppLinux
import Foundation
import Linux
import Posix
import Shared
import TestSupport
import Testing

/// The tunnel enforces the retention limits itself — at session start and on every rotation —
/// over a real session in a lab: exactly the planned files go, never the one being recorded nor
/// one holding audit evidence, and the history's aged connections with them. The commands read
/// the same directory while it runs. Needs root.
@Suite("The tunnel's own retention, in a lab", .serialized)
struct TunnelRetentionTests {
    static let week = RetentionSettings(maxAge: .oneWeek, maxCaptureSize: .unlimited)

    static func stats(_ data: URL) throws -> RetentionStats? {
        guard case .stats(let stats) = try ControlClient.send(.stats, to: DataDirectoryLayout.controlSocket(in: data).path) else {
            return nil
        }
        return stats.pipeline.retention
    }

    /// Waits until the tunnel has run `sweeps` passes (they run off the loop, a moment later).
    static func waitForSweeps(_ sweeps: UInt64, in data: URL) async throws -> RetentionStats {
        for _ in 0..<200 {
            if let stats = try Self.stats(data), stats.sweeps >= sweeps { return stats }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw ExpectationTimeout(what: "\(sweeps) retention sweeps")
    }

    struct ExpectationTimeout: Error { let what: String }

    static func sequences(_ data: URL) throws -> [UInt32] {
        try CaptureDirectory.fileInfos(in: DataDirectoryLayout.captures(in: data)).map(\.sequence)
    }

    static func tunnelvision(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), arguments)
    }

    static func json(_ document: String, _ path: String) throws -> String { try PythonJSON.value(document, path) }

    @Test("at session start and on a rotation the tunnel deletes exactly the planned files and aged connections, never the recording file nor audit evidence")
    func theTunnelEnforcesAtStartAndOnRotation() async throws {
        let lab = try Lab()
        defer { lab.remove() }
        let server = try LabScripts.start([LabScripts.python, "-m", "http.server", "8080", "--bind", Lab.serverIPv4],
                                          in: lab.server)
        defer { LabScripts.stop(server) }
        try LabScripts.waitForListener(Lab.serverIPv4, 8080, from: lab.host)

        let data = TemporaryDirectory("tunnel-retention")
        // Three captures of earlier sessions, started 30, 20 and 10 days ago; aged and recent connections.
        // File 2, past the week, holds audit evidence (its connection seen 2 days ago).
        let before = try RetentionFixture.captures(in: data.url, startedDaysAgo: [30, 20, 10])
        try await RetentionFixture.evidence(in: data.url, files: [2], lastSeenDaysAgo: 2)
        try await RetentionFixture.connections(in: data.url, count: 5, lastSeenDaysAgo: 30)
        let recent = try await RetentionFixture.connections(in: data.url, count: 2, lastSeenDaysAgo: 2, firstPort: 41_000)

        let device = try TUNDevice()
        defer { device.close() }
        try TunnelNamespacePlan.apply(device: device.name, namespace: lab.monitored.name)
        var options = TunnelSession.Options()
        options.captureDetail = .metadataOnly
        options.retention = Self.week
        let session = try await TunnelSession(dataDirectory: data.url, device: device, options: options,
                                              relayNamespace: lab.host.name)
        let recording = try #require(session.capture?.currentFileSequence)
        #expect(recording == 4)

        // What the planner says of the directory the tunnel started on, with its own file open.
        let opened = try CaptureDirectory.fileInfos(in: DataDirectoryLayout.captures(in: data.url)).filter { $0.sequence == recording }
        let planned = RetentionPlanner.plan(files: before + opened, settings: Self.week, now: Date(), recordingSequence: recording,
                                            evidenceSequences: [2])
        #expect(planned.filesToDelete == [1])
        let atStart = try await Self.waitForSweeps(1, in: data.url)
        #expect(atStart.capturesReclaimed == 1 && atStart.flowsPruned == 5 && atStart.retentionFailures == 0)
        #expect(try Self.sequences(data.url) == [2, 3, 4])

        // Traffic recorded into the open file, then the commands over the live directory.
        let curl = try lab.monitored.run(["curl", "-sS", "--max-time", "30", "-o", "/dev/null", "http://\(Lab.serverIPv4):8080/"])
        #expect(curl.status == 0)
        let listed = try Self.tunnelvision(["captures", "--json", "--data-dir", data.url.path])
        #expect(listed.status == 0, "\(listed.err)")
        #expect(try Self.json(listed.out, "tunnel") == "\"live\"")
        #expect(try Self.json(listed.out, "captures.0.sequence") == "4" && Self.json(listed.out, "captures.0.recording") == "true")
        #expect(try Self.json(listed.out, "captures.1.recording") == "false")
        #expect(try Self.json(listed.out, "captures.2.sequence") == "2" && Self.json(listed.out, "captures.2.evidence") == "true")
        let refused = try Self.tunnelvision(["captures", "rm", "4", "--data-dir", data.url.path])
        #expect(refused.status == 1 && refused.err.contains("is being recorded") && refused.err.contains("captures rotate"))
        #expect(try Self.sequences(data.url) == [2, 3, 4])

        // File 3 now looks 40 days old; a rotation (asked through the control socket) sweeps again:
        // file 3 goes, file 2 (evidence, older still) stays.
        try RetentionFixture.setModificationTime(of: before[2].url, to: Date().addingTimeInterval(-40 * RetentionFixture.day))
        let rotated = try Self.tunnelvision(["captures", "rotate", "--json", "--data-dir", data.url.path])
        #expect(rotated.status == 0, "\(rotated.err)")
        #expect(try Self.json(rotated.out, "recording") == "5")
        let afterRotation = try await Self.waitForSweeps(2, in: data.url)
        #expect(afterRotation.capturesReclaimed == 2 && afterRotation.retentionFailures == 0)
        #expect(try Self.sequences(data.url) == [2, 4, 5])

        // `storage apply` over the live directory: nothing left to delete, and it says so.
        let apply = try Self.tunnelvision(["storage", "apply", "--data-dir", data.url.path])
        #expect(apply.status == 0 && apply.out.contains("nothing to delete"), "\(apply.out)\(apply.err)")

        await session.stop()
        // What the run's summary says of the history: the 5 aged connections retention removed.
        let recorded = await SessionRecording.read(session)
        #expect(recorded.retention?.flowsPruned == 5 && recorded.retentionAge == Self.week.maxAge)
        let reader = try FlowStore(databaseURL: DataDirectoryLayout.database(in: data.url))
        let remaining = try await reader.recentFlows(limit: 100).map(\.id)
        #expect(Set(recent).isSubset(of: Set(remaining)))
        #expect(try await reader.flowCount() >= recent.count + 1)   // the curl's connection, recorded by this session
        let cutoff = Date().addingTimeInterval(-7 * RetentionFixture.day)
        #expect(try await reader.recentFlows(limit: 100).allSatisfy { $0.lastSeen >= cutoff })
        await reader.close()
    }

    @Test("a captures folder the tunnel cannot list deletes nothing, and the failure is counted")
    func anUnlistableFolderDeletesNothing() async throws {
        let lab = try Lab()
        defer { lab.remove() }
        let data = TemporaryDirectory("tunnel-retention")
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [30, 20])
        try await RetentionFixture.connections(in: data.url, count: 3, lastSeenDaysAgo: 30)
        let device = try TUNDevice()
        defer { device.close() }
        try TunnelNamespacePlan.apply(device: device.name, namespace: lab.monitored.name)
        var options = TunnelSession.Options()
        options.captureEnabled = false
        options.retention = Self.week
        // A file where the captures folder should be: listing it fails (ENOTDIR).
        let captures = DataDirectoryLayout.captures(in: data.url)
        let aside = data.url.appendingPathComponent("captures-aside")
        try FileManager.default.moveItem(at: captures, to: aside)
        try Data("not a folder".utf8).write(to: captures)
        let session = try await TunnelSession(dataDirectory: data.url, device: device, options: options,
                                              relayNamespace: lab.host.name)
        let stats = try await Self.waitForSweeps(1, in: data.url)
        #expect(stats.retentionFailures == 1 && stats.capturesReclaimed == 0 && stats.flowsPruned == 0)
        #expect(stats.lastRetentionError?.contains("nothing was deleted") == true)
        await session.stop()
        let reader = try FlowStore(databaseURL: DataDirectoryLayout.database(in: data.url))
        #expect(try await reader.flowCount() == 3)
        await reader.close()
        #expect(try CaptureDirectory.fileInfos(in: aside).count == 2)
    }
}
