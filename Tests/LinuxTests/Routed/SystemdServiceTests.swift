#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared
import Testing
import TestSupport

/// The systemd units in packaging/systemd, read by systemd's own tools, and the readiness the
/// service tells systemd (sd_notify: READY=1 once live, STOPPING=1 when told to stop), heard on
/// a socket of the test's own as systemd would hear it. Needs root (the readiness test starts the
/// service on the lab container); no unit is ever installed or started here.
@Suite("The systemd units and the readiness they wait for", .serialized)
struct SystemdServiceTests {
    static let units = ["tunnelvision.service", "tunnelvision-netns@.service"]

    /// A unit as installed, its ExecStart pointed at this build; a template gets an instance.
    static func installable(_ unit: String, in directory: URL) throws -> URL {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("packaging/systemd/\(unit)")
        let text = try String(contentsOf: source, encoding: .utf8)
            .replacingOccurrences(of: "/usr/bin/tunnelvision", with: try BuiltProduct.url("tunnelvision").path)
        let target = directory.appendingPathComponent(unit.replacingOccurrences(of: "@.", with: "@box."))
        try text.write(to: target, atomically: true, encoding: .utf8)
        return target
    }

    @Test("systemd-analyze verify reads each unit without a complaint", arguments: units)
    func unitsVerify(unit: String) throws {
        let directory = TemporaryDirectory("tv-units")
        let file = try Self.installable(unit, in: directory.url)
        // --man=no: the man page comes with the package, not this build.
        let verified = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/systemd-analyze"), ["verify", "--man=no", file.path])
        #expect(verified.status == 0 && verified.err.isEmpty, "\(verified.err)")
    }

    @Test("systemd-analyze security rates each unit's exposure at most 5.5 (measured 5.3: root with five capabilities)", arguments: units)
    func unitsAreHardened(unit: String) throws {
        let directory = TemporaryDirectory("tv-units")
        let file = try Self.installable(unit, in: directory.url)
        let rated = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/systemd-analyze"), ["security", "--offline=true", "--no-pager", file.path])
        let line = try #require(rated.out.split(separator: "\n").first { $0.contains("Overall exposure level") }, "\(rated.out) \(rated.err)")
        let level = try #require(Double(line.split(separator: ":").last?.split(separator: " ").first ?? ""), "\(line)")
        #expect(level <= 5.5, "\(line)")
    }

    /// A datagram socket bound where NOTIFY_SOCKET will say, receiving what the service sends.
    final class NotifySocket {
        let path: String
        let descriptor: Int32

        init(in directory: URL) throws {
            path = directory.appendingPathComponent("notify.sock").path
            descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            try #require(descriptor >= 0 && bound == 0)
            var limit = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(descriptor) }

        /// The next datagram, or "" after 30 s of silence.
        func receive() -> String {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
        }
    }

    @Test("up --foreground under systemd says READY=1 once live, with what it monitors, and STOPPING=1 when told to stop")
    func readinessIsToldToSystemd() throws {
        let site = try UpNamespaceTests.Site()
        let directory = TemporaryDirectory("tv-notify")
        let notify = try NotifySocket(in: directory.url)
        let up = Process()
        up.executableURL = try BuiltProduct.url("tunnelvision")
        up.arguments = ["up", "--netns", site.lab.target.name, "--foreground", "--data-dir", directory.url.appendingPathComponent("data").path]
        up.environment = ProcessInfo.processInfo.environment.merging(["NOTIFY_SOCKET": notify.path]) { $1 }
        up.standardOutput = FileHandle.nullDevice
        up.standardError = FileHandle.nullDevice
        try up.run()
        defer { if up.isRunning { kill(up.processIdentifier, SIGKILL) }; up.waitUntilExit() }
        let ready = notify.receive()
        #expect(ready.hasPrefix("READY=1\nSTATUS=monitoring network namespace \(site.lab.target.name): its default routes go through tv"), "\(ready)")
        #expect(try site.lab.route("198.18.99.9").hasPrefix("tv"), "READY=1 came once the routes went through the tunnel")
        kill(up.processIdentifier, SIGTERM)
        #expect(notify.receive().hasPrefix("STOPPING=1\n"))
        #expect(UpNamespaceTests.Site.ended(up) && up.terminationStatus == 0)
    }
}
