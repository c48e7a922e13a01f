#if canImport(Glibc)
import Glibc
#endif
import Fixtures
import Foundation
import TestSupport
import Testing
@testable import Shared

/// POSIX locks belong to a process and an inode, and closing any descriptor of the file drops them
/// all. The tunnel opens a second store on its own history (retention's pass) while its writer's
/// store is open: that opening must not drop the writer's locks, or another process (a reading
/// command) could decide it is the last user, checkpoint and delete the WAL under the tunnel.
@Suite struct FlowStoreProcessLocksTests {
    typealias F = StoreFixtures

    /// The POSIX locks this process holds on the file at `path`, as the kernel lists them.
    private func locksHeld(onFileAt path: String) throws -> Int {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0 }
        let inode = "\(status.st_ino)"
        let pid = "\(getpid())"
        return try String(contentsOfFile: "/proc/locks", encoding: .utf8).split(separator: "\n").filter { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard let advisory = fields.firstIndex(of: "ADVISORY"), advisory + 3 < fields.count else { return false }
            return fields[advisory + 2] == pid && fields[advisory + 3].split(separator: ":").last.map(String.init) == inode
        }.count
    }

    @Test("opening a second store on a history this process writes keeps the writer's locks on the file")
    func secondStoreKeepsTheWritersLocks() async throws {
        let directory = TemporaryDirectory()
        let url = F.databaseURL(in: directory)
        let writer = try FlowStore(databaseURL: url)
        let key = F.key(1)
        try await writer.write(FlowStoreBatch(flows: [F.record(key, firstSeen: F.uptime(1), lastSeen: F.uptime(2), packets: 1)],
                                              packets: [F.packet(key, at: F.uptime(1))]))
        let before = try locksHeld(onFileAt: url.path)
        #expect(before > 0, "a WAL connection holds a read lock on the database file while it is open")

        let second = try FlowStore(databaseURL: url, origin: "retention")
        #expect(try locksHeld(onFileAt: url.path) >= before)
        #expect(try await second.flowCount() == 1)
        await second.close()
        #expect(try locksHeld(onFileAt: url.path) >= before, "closing the second store leaves the writer's own")

        try await writer.write(FlowStoreBatch(flows: [F.record(F.key(2), firstSeen: F.uptime(3), lastSeen: F.uptime(4), packets: 1)],
                                              packets: [F.packet(F.key(2), at: F.uptime(3))]))
        #expect(try await writer.flowCount() == 2)
        await writer.close()
    }

    @Test("a file no connection of this process has open is still looked at before SQLite opens it")
    func closedFileIsCheckedAgain() async throws {
        let directory = TemporaryDirectory()
        let url = F.databaseURL(in: directory)
        let store = try FlowStore(databaseURL: url)
        await store.close()
        #expect(!SQLiteConnection.holdsLocks(onFileAt: url.path))
        try Data("not a database at all, and long enough to be a header".utf8).write(to: url)
        #expect(throws: StoreError.notADatabase(path: url.path)) { try FlowStore(databaseURL: url) }
    }
}
