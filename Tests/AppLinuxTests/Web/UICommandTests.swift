#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared
import Testing
import TestSupport

/// The real `tunnelvision ui` binary on loopback: it prints its address as JSON, serves the page
/// to curl once the key is traded for the cookie, refuses without it, and stops on TERM with 0.
@Suite("tunnelvision ui", .serialized)
struct UICommandTests {
    @Test("'tunnelvision ui --json --no-open' prints its address, serves the app behind a key that works once, and exits 0 on TERM")
    func servesAndStops() async throws {
        let ui = try await RunningUI()
        let jar = ui.data.url.appendingPathComponent("cookies").path
        #expect(ui.listen.hasPrefix("127.0.0.1:"))
        #expect(ui.url.hasPrefix("http://\(ui.listen)/?key="))
        #expect(ui.url.count == "http://\(ui.listen)/?key=".count + 64)
        #expect(ui.announced["dataDirectory"] as? String == ui.history.path)
        #expect(ui.announced["keyLifetimeSeconds"] as? Int == 300)

        let refused = try await ServedForTest.curl(["-o", "/dev/null", "-w", "%{http_code}", "\(ui.base)/"])
        #expect(refused.out == "401")
        let page = try await ServedForTest.curl(["-i", "-L", "-c", jar, "-b", jar, ui.url])
        #expect(page.out.contains("HTTP/1.1 303 See Other"))
        #expect(page.out.contains("HTTP/1.1 200 OK"))
        #expect(page.out.contains("Content-Type: text/html; charset=utf-8"))
        #expect(page.out.contains("<html"))
        let api = try await ServedForTest.curl(["-s", "-b", jar, "\(ui.base)/api/settings"])
        #expect(api.out.hasPrefix("{\"error\": ") || api.out.hasPrefix("{"), "the API answers JSON: \(api.out.prefix(80))")
        let again = try await ServedForTest.curl(["-i", ui.url])
        #expect(again.out.hasPrefix("HTTP/1.1 401"), "the printed key opened a second browser: \(again.out.prefix(200))")
        #expect(again.out.contains("was already used"))
        let sameBrowser = try await ServedForTest.curl(["-i", "-b", jar, ui.url])
        #expect(sameBrowser.out.hasPrefix("HTTP/1.1 303"), "a browser with the cookie is sent on to /")

        #expect(try await ui.stop() == 0)
        let logged = ui.stderr
        #expect(logged.contains(" GET / 401 this browser has no session"), "the refusal is logged: \(logged)")
        #expect(logged.contains(" GET / 401 the key in the address was already used"), "\(logged)")
        #expect(!logged.contains("key="), "the key never reaches the log")
    }

    @Test("'ui link' prints a new address from the running server, whose key works once; with no server it says so and exits 1")
    func link() async throws {
        let ui = try await RunningUI()
        let channel = ui.history.appendingPathComponent("ui").path
        let sockets = try FileManager.default.contentsOfDirectory(atPath: channel)
        #expect(sockets.count == 1 && sockets[0].hasSuffix("-\(ui.port).sock"), "\(sockets)")
        #expect(PathStatus.of(channel)?.mode == 0o700 && PathStatus.of(channel + "/" + sockets[0])?.mode == 0o600)

        let json = try ui.link(["--json"])
        #expect(json.status == 0, "\(json.err)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any], "\(json.out)")
        let fresh = try #require(answer["url"] as? String)
        #expect(fresh.hasPrefix("http://\(ui.listen)/?key=") && fresh != ui.url)
        #expect(answer["keyLifetimeSeconds"] as? Int == 300 && answer["dataDirectory"] as? String == ui.history.path)
        #expect(await (try ui.login(fresh)) != nil, "the new address opens a browser")
        #expect(await (try ui.login(fresh)) == nil, "once")
        #expect(await (try ui.login(ui.url)) != nil, "the printed one is still good: it is another key")

        let text = try ui.link()
        #expect(text.status == 0)
        #expect(text.out.hasPrefix("TunnelVision is at http://\(ui.listen)/?key=") && text.out.contains("within 5 minutes"), "\(text.out)")
        #expect(ui.stderr.contains("a new address was made for user \(geteuid())"), "\(ui.stderr)")

        #expect(try await ui.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: channel), "the channel goes with the server")
        let none = try ui.link()
        #expect(none.status == 1 && none.out.isEmpty)
        #expect(none.err.contains("ui link: no web app serves \(ui.history.path)"), "\(none.err)")
        let usage = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["ui", "link", "--listen", "127.0.0.1:1"])
        #expect(usage.status == 2 && usage.err.contains("ui link: unknown argument --listen"))
    }

    @Test("a socket left by a server that died is passed over and removed by 'ui link'")
    func staleChannel() throws {
        let data = TemporaryDirectory("ui-stale")
        let channel = data.url.appendingPathComponent("ui")
        try FileManager.default.createDirectory(at: channel, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let stale = channel.appendingPathComponent("999999-1.sock").path
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(stale.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(descriptor)   // bound, never listening, now closed: what a killed server leaves
        #expect(bound == 0)
        let result = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["ui", "link", "--data-dir", data.url.path])
        #expect(result.status == 1 && result.err.contains("no web app serves"), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: stale))
    }

    @Test("HEAD answers where GET does — the app's files, the API, the event stream — with GET's status and headers and no body")
    func head() async throws {
        let ui = try await RunningUI()
        let cookie = try #require(try await ui.login(ui.url))
        func exchange(_ method: String, _ path: String) async throws -> (head: String, body: String) {
            let client = try RawHTTPClient(port: ui.port)
            try client.send("\(method) \(path) HTTP/1.1\r\nHost: \(ui.listen)\r\nCookie: \(cookie)\r\nConnection: close\r\n\r\n")
            let text = path == "/api/live" && method == "GET"
                ? await client.read { $0.contains("\r\n\r\n") }.text
                : await client.read(timeout: .seconds(10)) { _ in false }.text
            let end = try #require(text.range(of: "\r\n\r\n"), "no head: \(text.prefix(200))")
            return (String(text[..<end.lowerBound]), String(text[end.upperBound...]))
        }
        func field(_ name: String, _ head: String) -> String? {
            head.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }.map(String.init)
        }
        for path in ["/", "/app.js", "/app.css", "/favicon.svg", "/api/flows", "/api/settings", "/api/captures", "/api/ca",
                     "/api/storage", "/api/live/now", "/api/live", "/api/nothing", "/nothing.js"] {
            let get = try await exchange("GET", path), head = try await exchange("HEAD", path)
            #expect(head.head.prefix { $0 != "\r" } == get.head.prefix { $0 != "\r" }, "\(path): \(head.head.prefix(40))")
            #expect(head.body.isEmpty, "HEAD \(path) sent a body")
            #expect(field("Content-Type", head.head) == field("Content-Type", get.head), "\(path)")
            #expect(field("Content-Security-Policy", head.head) != nil, "\(path)")
            if !path.hasPrefix("/api/") || path == "/api/nothing" {
                #expect(field("Content-Length", head.head) == field("Content-Length", get.head), "\(path)")
                #expect(field("Content-Length", head.head) == "Content-Length: \(get.body.utf8.count)", "\(path)")
            }
        }
        #expect(try await ui.stop() == 0)
    }

    @Test("'--listen' with an address it cannot use says so and exits 2 before serving")
    func badListen() throws {
        let result = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["ui", "--listen", "0.0.0.0:80", "--no-open"])
        #expect(result.status == 2)
        #expect(result.err.contains("name one address to listen on"))
    }

    @Test("'--data-dir' with no value is a usage error for ui and live alike, in the words every command uses")
    func dataDirectoryNeedsAValue() throws {
        for command in ["ui", "live"] {
            let result = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), [command, "--no-open", "--data-dir"].filter {
                command == "ui" || $0 != "--no-open"
            })
            #expect(result.status == 2)
            #expect(result.err.contains("\(command): --data-dir needs a value"), "\(result.err)")
        }
    }
}
