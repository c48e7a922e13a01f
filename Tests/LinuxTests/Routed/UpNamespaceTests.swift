#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import Linux
import Shared
import Testing
import TestSupport

/// `tunnelvision up --netns NAME --foreground`, the built binary, monitoring a lab "container"
/// (`RoutedRoutingTests.Container`) whose only way out is its uplink, to a real server beyond its
/// default route. Needs root.
@Suite("up --netns: a namespace monitored as a service", .serialized)
struct UpNamespaceTests {
    /// The lab container, a web server beyond its uplink (SIGKILLed at the end: a child of a test
    /// thread starts with the thread's signals blocked, SIGTERM among them) and the URL of a file.
    final class Site {
        let lab: RoutedRoutingTests.Container
        let server = Process()
        let directory = TemporaryDirectory("tv-up-site")
        let url = "http://198.18.99.9:8080/hello.txt"
        let big = "http://198.18.99.9:8080/big.bin"

        init() throws {
            lab = try RoutedRoutingTests.Container()
            try lab.uplink.ip(["link", "set", "lo", "up"])
            try lab.uplink.ip(["addr", "add", "198.18.99.9/32", "dev", "lo"])
            try "hello from beyond the uplink\n".write(to: directory.url.appendingPathComponent("hello.txt"), atomically: true, encoding: .utf8)
            try Data(count: 8 << 20).write(to: directory.url.appendingPathComponent("big.bin"))
            try Self.serve(server, in: lab.uplink.name, address: "198.18.99.9", directory: directory)
        }

        /// Starts Python's web server on `address`:8080 in namespace `name`, serving `directory`,
        /// and returns once it listens.
        static func serve(_ server: Process, in name: String, address: String, directory: TemporaryDirectory) throws {
            server.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
            server.arguments = ["netns", "exec", name, "python3", "-u", "-m", "http.server", "8080", "--bind", address,
                                "--directory", directory.url.path]
            let said = Pipe()
            server.standardOutput = said
            server.standardError = FileHandle.nullDevice
            try server.run()
            // It says so once it listens (or nothing, and the line is empty, if it died).
            let ready = SocketOwnerLookupTests.line(said.fileHandleForReading)
            #expect(ready.hasPrefix("Serving HTTP on \(address) port 8080"), "\(ready)")
        }

        deinit {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }

        /// `up --netns` on the container, started and said live.
        func up(_ data: TemporaryDirectory) throws -> (Process, errors: Pipe) {
            let up = Process()
            up.executableURL = try BuiltProduct.url("tunnelvision")
            up.arguments = ["up", "--netns", lab.target.name, "--foreground", "--data-dir", data.url.path]
            let output = Pipe(), errors = Pipe()
            up.standardOutput = output
            up.standardError = errors
            try up.run()
            let live = SocketOwnerLookupTests.line(output.fileHandleForReading)
            #expect(live.hasPrefix("monitoring network namespace \(lab.target.name)"), "\(live)")
            return (up, errors)
        }

        /// SIGTERM to a foreground service: it ends cleanly (exit 0, its stderr said otherwise),
        /// and, given the container's rules and routes from before, leaves them byte for byte so.
        static func stop(_ up: Process, errors: Pipe, leaving lab: RoutedRoutingTests.Container? = nil, as before: String = "") throws {
            kill(up.processIdentifier, SIGTERM)
            #expect(ended(up) && up.terminationStatus == 0,
                    "\(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
            if let lab {
                let differences = try lab.differences(from: before)
                #expect(differences.isEmpty, "\(differences)")
            }
        }

        /// Waits for `process` to end, up to a deadline; whether it did.
        static func ended(_ process: Process, within seconds: Double = 15) -> Bool {
            let done = DispatchSemaphore(value: 0)
            Thread {
                process.waitUntilExit()
                done.signal()
            }.start()
            return done.wait(timeout: .now() + seconds) == .success
        }
    }

    @Test("curl in the namespace is recorded with its program while up runs; SIGTERM ends it, the namespace's rules and routes byte for byte as before")
    func monitorsAndStops() throws {
        let site = try Site()
        let lab = site.lab
        let url = site.url
        let before = try lab.snapshot()
        let data = TemporaryDirectory("tv-up-data")
        let (up, errors) = try site.up(data)
        defer { if up.isRunning { kill(up.processIdentifier, SIGKILL) }; up.waitUntilExit() }

        let fetched = try lab.target.run(["curl", "-sS", "--max-time", "10", url])
        #expect(fetched.standardOutput == "hello from beyond the uplink\n")
        // A download that lasts about a second: its socket is there when the program is asked
        // about, however busy the machine (a 30-byte fetch may be over first, and say so).
        let slow = try lab.target.run(["curl", "-sS", "--limit-rate", "8M", "-o", "/dev/null", "-w", "%{size_download}", site.big])
        #expect(slow.standardOutput == "\(8 << 20)")
        #expect(try lab.route("198.18.99.9").hasPrefix("tv"), "the namespace's default route goes through the TUN")

        try Site.stop(up, errors: errors, leaving: lab, as: before)

        let flows = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"),
                                         ["flows", "--data-dir", data.url.path, "--json", "--program", "curl"])
        let document = try JSONSerialization.jsonObject(with: Data(flows.out.utf8)) as? [String: Any]
        let recorded = (document?["flows"] as? [[String: Any]]) ?? []
        #expect(recorded.contains { flow in
            let remote = flow["remote"] as? [String: Any]
            return remote?["address"] as? String == "198.18.99.9" && remote?["port"] as? Int == 8080
        }, "\(flows.out) \(flows.err)")
    }

    @Test("a namespace that is not there, or one with no default route, is refused with why, in the foreground and the background; nothing is left behind")
    func refusals() throws {
        let missing = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["up", "--netns", "tv-no-such-namespace", "--foreground",
                                                                                   "--data-dir", TemporaryDirectory("tv-up-none").url.path])
        #expect(missing.status == 1 && missing.err.contains("there is no network namespace tv-no-such-namespace"), "\(missing.err)")
        let lonely = try NetworkNamespace.create(NamespaceName.make(prefix: "tvrtl"))
        defer { lonely.delete() }
        let none = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["up", "--netns", lonely.name, "--foreground",
                                                                                "--data-dir", TemporaryDirectory("tv-up-none").url.path])
        #expect(none.status == 1 && none.err.contains("has no default route"), "\(none.err)")
        #expect(try lonely.ip(["link", "show"]).standardOutput.components(separatedBy: "\n").filter { $0.contains(": tv") }.isEmpty)
        // In the background the same refusal reaches whoever started it, and the record keeps it.
        let data = TemporaryDirectory("tv-up-none")
        let background = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["up", "--netns", lonely.name, "--data-dir", data.url.path])
        #expect(background.status == 1 && background.err.contains("monitoring could not start: network namespace \(lonely.name) has no default route"),
                "\(background.err)")
        let status = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["status", "--json", "--data-dir", data.url.path])
        #expect(status.status == 3)
        #expect(try PythonJSON.value(status.out, "state") == "\"off\"")
        #expect(try PythonJSON.value(status.out, "lastService.problem").contains("has no default route"), "\(status.out)")
    }

    @Test("kill -9 mid-download: the next download in the namespace succeeds at once with no command; the next up sweeps what was left, and its stop leaves the namespace as before")
    func failsOpen() throws {
        let site = try Site()
        let lab = site.lab
        let before = try lab.snapshot()
        let data = TemporaryDirectory("tv-up-data")
        let (up, _) = try site.up(data)
        let download = Process()
        download.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        download.arguments = ["netns", "exec", lab.target.name, "curl", "-sS", "--max-time", "20", "--limit-rate", "1M", "-o", "-", site.big]
        let received = Pipe()
        download.standardOutput = received
        download.standardError = FileHandle.nullDevice
        try download.run()
        defer { kill(download.processIdentifier, SIGKILL); download.waitUntilExit() }
        // Mid-download: its first bytes came through the tunnel (and the rest wait behind an unread pipe).
        #expect(received.fileHandleForReading.readData(ofLength: 1).count == 1)
        kill(up.processIdentifier, SIGKILL)
        #expect(Site.ended(up))
        #expect(try lab.route("198.18.99.9") == "up0", "its routes went with its device")
        let next = try lab.target.run(["curl", "-sS", "--max-time", "10", site.url])
        #expect(next.standardOutput == "hello from beyond the uplink\n")
        #expect(try routingLeftovers(lab).rules.count == 6, "the rules stayed: harmless, and swept by the next up")

        let (again, errors) = try site.up(data)
        #expect(try lab.route("198.18.99.9").hasPrefix("tv"))
        kill(again.processIdentifier, SIGTERM)
        #expect(Site.ended(again) && again.terminationStatus == 0,
                "\(String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
        let differences = try lab.differences(from: before)
        #expect(differences.isEmpty, "\(differences)")
    }

    func routingLeftovers(_ lab: RoutedRoutingTests.Container) throws -> RoutedLeftovers {
        try RoutedRouting(namespaceName: lab.target.name).leftovers()
    }
}
