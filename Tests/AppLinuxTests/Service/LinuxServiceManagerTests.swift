#if canImport(Glibc)
import Glibc
#endif
import App
@testable import AppLinux
import Foundation
import Shared
import Testing
import TestSupport

/// The Linux manager under the monitoring control, against stand-in services: shell scripts it
/// really spawns, that say what a service says and hold or let go of what a service would. The
/// real service is `UpServiceTests`'s. Needs root (the manager checks for it before a start).
@Suite("The Linux service manager", .serialized)
struct LinuxServiceManagerTests {
    /// A manager on a fresh data directory whose "service" is `script` (a /bin/sh program; $1… are
    /// the arguments up would get).
    static func manager(_ data: TemporaryDirectory, script: String, startDeadline: Duration = .seconds(10)) throws -> LinuxServiceManager {
        let path = data.url.appendingPathComponent("service.sh")
        // Written through a close-on-exec descriptor: one that a child forked meanwhile by another
        // test kept open would make the script "text file busy" to run (seen in a full run).
        let descriptor = open(path.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o700)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let text = Array(("#!/bin/sh\n" + script).utf8)
        let written = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == text.count else { throw POSIXError(.EIO) }
        let directory = data.url.appendingPathComponent("data")
        try DataDirectory.prepare(directory)
        return LinuxServiceManager(dataDirectory: directory, executable: path.path, startDeadline: startDeadline)
    }

    @Test("one lock per data directory: a second claim is refused while the first holds it, and a reader never holds it")
    func theLockIsExclusive() throws {
        let data = TemporaryDirectory("tv-lock")
        let first = try #require(try ServiceLock.acquire(in: data.url))
        #expect(try ServiceLock.isHeld(in: data.url))
        #expect(try ServiceLock.acquire(in: data.url) == nil)
        first.release()
        #expect(try !ServiceLock.isHeld(in: data.url))
        let again = try #require(try ServiceLock.acquire(in: data.url))
        again.release()
    }

    @Test("the lock and the record refuse a symbolic link in their place; an unreadable record is an error, never no record")
    func linksAndDamageAreRefused() throws {
        let data = TemporaryDirectory("tv-lock-link")
        let elsewhere = data.url.appendingPathComponent("elsewhere").path
        symlink(elsewhere, DataDirectoryLayout.serviceLock(in: data.url).path)
        #expect(throws: ServiceLock.Failure.symbolicLink(path: DataDirectoryLayout.serviceLock(in: data.url).path)) {
            _ = try ServiceLock.acquire(in: data.url)
        }
        #expect(access(elsewhere, F_OK) != 0)
        symlink(elsewhere, DataDirectoryLayout.serviceRecord(in: data.url).path)
        #expect(throws: ServiceRecordError.symbolicLink(path: DataDirectoryLayout.serviceRecord(in: data.url).path)) {
            _ = try ServiceRecordFile.read(in: data.url)
        }
        unlink(DataDirectoryLayout.serviceRecord(in: data.url).path)
        try Data("{\"pid\":".utf8).write(to: DataDirectoryLayout.serviceRecord(in: data.url))
        #expect(throws: ServiceRecordError.self) { _ = try ServiceRecordFile.read(in: data.url) }
        // Something else in its place is reported, never read whole: a megabyte, a directory.
        try Data(count: 1 << 20).write(to: DataDirectoryLayout.serviceRecord(in: data.url))
        #expect(throws: ServiceRecordError.malformed("\(DataDirectoryLayout.serviceRecord(in: data.url).path) is 1048576 bytes, far more than a service record")) {
            _ = try ServiceRecordFile.read(in: data.url)
        }
        unlink(DataDirectoryLayout.serviceRecord(in: data.url).path)
        mkdir(DataDirectoryLayout.serviceRecord(in: data.url).path, 0o700)
        #expect(throws: ServiceRecordError.malformed("\(DataDirectoryLayout.serviceRecord(in: data.url).path) is not a regular file")) {
            _ = try ServiceRecordFile.read(in: data.url)
        }
    }

    @Test("a record is written 0600 and read back as written")
    func recordRoundTrips() throws {
        let data = TemporaryDirectory("tv-record")
        let record = ServiceRecord(pid: 12, target: .namespace("box"), inspect: false, phase: .live,
                                   startedAt: Date(timeIntervalSince1970: 1_796_464_800), device: "tun0")
        try ServiceRecordFile.write(record, in: data.url)
        var status = stat()
        #expect(stat(DataDirectoryLayout.serviceRecord(in: data.url).path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(try ServiceRecordFile.read(in: data.url) == record)
        ServiceRecordFile.remove(in: data.url)
        #expect(try ServiceRecordFile.read(in: data.url) == nil)
    }

    @Test("a service that fails to start: its own error line, without the program's prefix, is the failure")
    func aFailedStartSaysWhy() async throws {
        let data = TemporaryDirectory("tv-manager-fail")
        let manager = try Self.manager(data, script: """
            echo "tunnelvision: up: there is no network namespace box ('ip netns list' shows them)" >&2
            exit 1
            """)
        try await manager.install(TunnelConfiguration(target: .namespace("box")))
        await #expect(throws: TunnelControlError.startFailed("there is no network namespace box ('ip netns list' shows them)")) {
            try await manager.start()
        }
    }

    @Test("a service that neither goes live nor ends within the deadline is told to stop, and the start fails saying so")
    func aSilentServiceTimesOut() async throws {
        let data = TemporaryDirectory("tv-manager-silent")
        let marker = data.url.appendingPathComponent("stopped").path
        // A stand-in that never goes live and never ends by itself: it waits on a child that sleeps until killed.
        let manager = try Self.manager(data, script: """
            trap 'kill $!; touch \(marker); exit 0' TERM
            echo "setting up"
            sleep infinity &
            wait
            """, startDeadline: .milliseconds(700))
        try await manager.install(TunnelConfiguration(target: .namespace("box")))
        do {
            try await manager.start()
            Issue.record("a silent service was taken for live")
        } catch {
            guard case .startFailed(let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.contains("was not live within") && reason.contains("it said: setting up"), "\(reason)")
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while access(marker, F_OK) != 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(access(marker, F_OK) == 0, "the silent service was never told to stop")
    }

    @Test("the service gets up's own arguments, a session of its own and no blocked signal")
    func theServiceIsStartedAsItsOwn() async throws {
        let data = TemporaryDirectory("tv-manager-args")
        let said = data.url.appendingPathComponent("said").path
        let manager = try Self.manager(data, script: """
            echo "$@" > \(said)
            echo "sid $(cut -d' ' -f6 /proc/$$/stat) pid $$" >> \(said)
            # The mask as exec hands it on: read by grep itself, never by the shell while it forks
            # (it blocks every signal for a moment then, which a look from outside could catch).
            exec grep SigBlk /proc/self/status >> \(said)
            """)
        try await manager.install(TunnelConfiguration(target: .namespace("box")))
        await #expect(throws: TunnelControlError.self) { try await manager.start() }
        let lines = try String(contentsOfFile: said, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.first == "up --netns box --data-dir \(manager.dataDirectory.path) --foreground --detached")
        let session = lines.dropFirst().first?.split(separator: " ").map(String.init) ?? []
        #expect(session.count == 4 && session[1] == session[3], "not a session leader: \(lines)")
        #expect(lines.last == "SigBlk:\t0000000000000000")
    }

    @Test("with nothing running: stop says not running, the status is not installed until a configuration is, then off")
    func nothingRunning() async throws {
        let data = TemporaryDirectory("tv-manager-idle")
        let manager = try Self.manager(data, script: "exit 0\n")
        await #expect(throws: TunnelControlError.notRunning) { try await manager.stop() }
        #expect(try await manager.loadStatus() == .notInstalled)
        #expect(try await manager.sendControl(ControlChannel.encode(.stats)) == nil)
        try await manager.install(TunnelConfiguration(target: .namespace("box")))
        #expect(try await manager.loadStatus() == .disconnected)
    }
}
