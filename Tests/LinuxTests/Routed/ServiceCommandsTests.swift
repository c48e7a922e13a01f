#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared
import Testing
import TestSupport

/// `up`, `status` and `down` where no namespace is needed: what they say with nothing running,
/// to someone without the rights, and to a command line that cannot be.
@Suite("up, status and down without a service")
struct ServiceCommandsTests {
    static func tunnelvision(_ arguments: [String], as user: String? = nil) throws -> (status: Int32, out: String, err: String) {
        guard let user else { return try UpServiceTests.tunnelvision(arguments) }
        let result = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/setpriv"),
                                          ["--reuid", user, "--regid", user, "--clear-groups", "--", try BuiltProduct.url("tunnelvision").path]
                                          + arguments)
        return (result.status, result.out, result.err)
    }

    @Test("with nothing running: status says so (exit 3, state off), down says so (exit 3)")
    func nothingRunning() throws {
        let data = TemporaryDirectory("tv-svc-idle")
        let status = try Self.tunnelvision(["status", "--json", "--data-dir", data.url.path])
        #expect(status.status == 3, "\(status.err)")
        #expect(try PythonJSON.value(status.out, "state") == "\"off\"")
        #expect(try PythonJSON.value(status.out, "status") == "\"disconnected\"")
        #expect(try PythonJSON.value(status.out, "service") == "null")
        #expect(try PythonJSON.value(status.out, "run") == "false")
        let text = try Self.tunnelvision(["status", "--data-dir", data.url.path])
        #expect(text.status == 3 && text.out.hasPrefix("no service runs on \(data.url.path)"))
        let down = try Self.tunnelvision(["down", "--data-dir", data.url.path])
        #expect(down.status == 3 && down.err == "tunnelvision: down: no service runs on \(data.url.path)\n")
    }

    @Test("someone without root is told permission denied and what to do, and nothing starts")
    func withoutRoot() throws {
        let data = TemporaryDirectory("tv-svc-nobody")
        chown(data.url.path, 65534, 65534)
        let up = try Self.tunnelvision(["up", "--netns", "box", "--data-dir", data.url.path], as: "65534")
        #expect(up.status == 1 && up.err.contains("permission denied: monitoring needs root") && up.err.contains("sudo"), "\(up.err)")
        #expect(access(DataDirectoryLayout.serviceRecord(in: data.url).path, F_OK) != 0)
        // Root's own directory cannot even be read: that is a denial too, not "nothing runs".
        let root = TemporaryDirectory("tv-svc-root")
        chmod(root.url.path, 0o700)
        let status = try Self.tunnelvision(["status", "--data-dir", root.url.path], as: "65534")
        #expect(status.status == 1 && status.err.contains("permission denied"), "\(status.out) \(status.err)")
    }

    @Test("a command line that cannot be is a usage error that says why", arguments: [
        (["up"], "what to monitor?"),
        (["up", "--host", "--netns", "a"], "one target at a time"),
        (["up", "--netns", "a", "--netns", "b"], "one target at a time"),
        (["up", "--netns", "a/b"], "is not a namespace name"),
        (["up", "--netns", "a", "--detached"], "--detached is for the service itself"),
        (["up", "--netns", "a", "--json"], "--json is for 'tunnelvision status'"),
        (["up", "--interface", "a/b"], "is not an interface name"),
        (["up", "--interface", "eth0", "--inspect"], "cannot be inspected: watching an interface relays nothing"),
        (["up", "--host", "--upstream-ca", "/etc/hostname"], "up: --upstream-ca is for TLS inspection"),
        (["up", "--host", "--inspect", "--upstream-ca", "/etc/hostname"], "are for a service in the foreground"),
        (["up", "--host", "--inspect", "--upstream-ca", "/no/such/file", "--foreground"], "--upstream-ca: /no/such/file does not exist"),
        (["up", "--host", "--no-open"], "--no-open is for --ui"),
        (["up", "--host", "--ui", "--foreground", "--detached"], "--ui is up's own"),
        (["down", "--json"], "--json is for 'tunnelvision status'"),
        (["status", "extra"], "status"),
    ])
    func usageErrors(arguments: [String], says: String) throws {
        let result = try Self.tunnelvision(arguments)
        #expect(result.status == 2 && result.err.contains(says), "\(result.err)")
    }

    @Test("the help names up, status and down, and each has its own page")
    func help() throws {
        let overview = try Self.tunnelvision(["--help"]).out
        #expect(overview.contains("tunnelvision up --host | --netns NAME | --pid PID | --interface IF [--inspect] [--ui] [--foreground] [--data-dir D]"))
        #expect(overview.contains("tunnelvision status [--data-dir D] [--json]"))
        #expect(overview.contains("tunnelvision down [--data-dir D]"))
        #expect(try Self.tunnelvision(["help", "status"]).out.contains("Exit status 0 when a service runs, 3 when none does"))
        #expect(try Self.tunnelvision(["down", "--help"]).out.contains("SIGTERM"))
    }
}
