#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import Linux
import Shared
import Testing
import TestSupport

/// `tunnelvision up --ui`: the service in the background, then the web app on its data directory
/// in the foreground until Ctrl-C — after which the service goes on. Run inside the lab container
/// (`ip netns exec`), where `--host` is the container. Needs root.
@Suite("up --ui: the web app once the service is live", .serialized)
struct UpWebAppTests {
    @Test("up --host --ui --no-open prints the web app's address once live, the page answers, Ctrl-C stops the app and the service goes on until down")
    func webAppAfterTheServiceIsLive() throws {
        let site = try UpNamespaceTests.Site()
        let lab = site.lab
        let data = TemporaryDirectory("tv-up-ui")
        let up = Process()
        up.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        up.arguments = ["netns", "exec", lab.target.name, try BuiltProduct.url("tunnelvision").path,
                        "up", "--host", "--ui", "--no-open", "--data-dir", data.url.path]
        let output = Pipe(), errors = Pipe()
        up.standardOutput = output
        up.standardError = errors
        try up.run()
        defer { if up.isRunning { kill(up.processIdentifier, SIGKILL) }; up.waitUntilExit() }
        defer { _ = try? BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["down", "--data-dir", data.url.path]) }
        // The service's live line first, then the web app's address.
        var said: [String] = []
        while !(said.last ?? "").hasPrefix("TunnelVision is at ") {
            let line = SocketOwnerLookupTests.line(output.fileHandleForReading)
            guard !line.isEmpty else { break }
            said.append(line)
        }
        #expect(said.first?.hasPrefix("monitoring the host (the namespace the service runs in) through tv") == true, "\(said)")
        let address = try #require(said.last?.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init),
                                   "\(said)")
        let page = try lab.target.run(["curl", "-sS", "--max-time", "10", "-o", "/dev/null", "-w", "%{http_code}", "-L",
                                       "--cookie-jar", "/dev/null", address])
        #expect(page.standardOutput == "200", "\(page.standardOutput)")

        kill(up.processIdentifier, SIGINT)
        #expect(UpNamespaceTests.Site.ended(up) && up.terminationStatus == 0)
        let stopped = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stopped.contains("the web app stopped; the service goes on"), "\(stopped)")
        let status = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["status", "--json", "--data-dir", data.url.path])
        let state = try PythonJSON.value(status.out, "state")
        #expect(status.status == 0 && state == "\"live\"", "\(status.out)")
        let down = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["down", "--data-dir", data.url.path])
        #expect(down.status == 0, "\(down.err)")
    }
}
