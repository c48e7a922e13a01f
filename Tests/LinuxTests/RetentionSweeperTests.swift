import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// The tunnel's own retention (`RetentionSweeper`) over audit evidence, driven as the capture
/// writer and the runtime drive it on a rotation — room made before the next file opens, then the
/// pass that follows — over real captures and a real history, no lab needed: the files holding
/// evidence survive both, and evidence that cannot be read stops both, counted with why.
@Suite(.serialized) struct RetentionSweeperTests {
    static let week = RetentionSettings(maxAge: .oneWeek, maxCaptureSize: .unlimited)

    static func sequences(_ data: URL) throws -> [UInt32] {
        try CaptureDirectory.fileInfos(in: DataDirectoryLayout.captures(in: data)).map(\.sequence)
    }

    @Test("across a rotation the files holding audit evidence are kept, by the room made and by the sweep, while aged files and rows go")
    func evidenceIsKeptAcrossARotation() async throws {
        let data = TemporaryDirectory("retention-sweeper")
        // Files started 30, 20, 10 and 5 days ago, each written until the next began, the last until now.
        // Files 1 and 3 hold evidence of an ended audit session; four connections are 30 days old.
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [30, 20, 10, 5])
        let session = try await RetentionFixture.evidence(in: data.url, files: [1, 3], lastSeenDaysAgo: 20)
        try await RetentionFixture.connections(in: data.url, count: 4, lastSeenDaysAgo: 30)
        // The tunnel's own history is open meanwhile, as it is in a session.
        let tunnel = try FlowStore(dataDirectory: data.url, origin: "run curl")
        let sweeper = RetentionSweeper(dataDirectory: data.url, settings: Self.week)

        // The writer is about to open file 5: room is made first. File 1 is past the week but
        // evidence; file 2 (ended 10 days ago) goes; file 4 is the newest there is.
        sweeper.makeRoom(opening: 5)
        #expect(sweeper.stats.capturesReclaimed == 1 && sweeper.stats.sweeps == 0 && sweeper.stats.retentionFailures == 0)
        #expect(try Self.sequences(data.url) == [1, 3, 4])
        // File 5 opens; files 3 and 4 now look 40 days old. The pass after the rotation keeps
        // file 3 (evidence) and takes file 4, and the aged connections but the evidence's.
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [0])
        let listed = try CaptureDirectory.fileInfos(in: DataDirectoryLayout.captures(in: data.url))
        for file in listed where [3, 4].contains(file.sequence) {
            try RetentionFixture.setModificationTime(of: file.url, to: Date().addingTimeInterval(-40 * RetentionFixture.day))
        }
        sweeper.sweep(recordingSequence: 5)
        await sweeper.finish()
        let stats = sweeper.stats
        #expect(stats.sweeps == 1 && stats.capturesReclaimed == 2 && stats.flowsPruned == 4 && stats.retentionFailures == 0,
                "\(stats)")
        #expect(try Self.sequences(data.url) == [1, 3, 5])
        #expect(try await tunnel.flowCount(inAuditSession: session) == 2)
        #expect(try await tunnel.flowCount() == 2)
        await tunnel.close()
    }

    @Test("evidence the tunnel cannot read deletes nothing, neither by the room made nor by the sweep, and each is counted with why")
    func unreadableEvidenceStopsTheTunnelsRetention() async throws {
        let data = TemporaryDirectory("retention-sweeper")
        try RetentionFixture.captures(in: data.url, startedDaysAgo: [30, 20, 10, 5])
        // The history is damaged: not a database at all.
        try Data("this is not a database".utf8).write(to: DataDirectoryLayout.database(in: data.url))
        let sweeper = RetentionSweeper(dataDirectory: data.url, settings: Self.week)
        sweeper.makeRoom(opening: 5)
        #expect(sweeper.stats.retentionFailures == 1 && sweeper.stats.capturesReclaimed == 0)
        #expect(sweeper.stats.lastRetentionError?.hasPrefix(
            "the capture files holding audit evidence could not be read, so nothing was deleted, neither captures nor connections: ") == true)
        #expect(sweeper.stats.lastRetentionError?.contains("is damaged") == true, "\(sweeper.stats)")
        sweeper.sweep(recordingSequence: 5)
        await sweeper.finish()
        let stats = sweeper.stats
        #expect(stats.sweeps == 1 && stats.retentionFailures == 2 && stats.capturesReclaimed == 0 && stats.flowsPruned == 0)
        #expect(stats.lastRetentionError?.contains("could not be read, so nothing was deleted") == true)
        #expect(stats.lastRetentionError?.contains("the history could not be opened") == true, "\(stats)")
        #expect(try Self.sequences(data.url) == [1, 2, 3, 4])
    }
}
