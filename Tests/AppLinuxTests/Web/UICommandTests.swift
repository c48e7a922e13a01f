#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// The real `tunnelvision ui` binary on loopback: it prints its address as JSON, serves the page
/// to curl once the key is traded for the cookie, refuses without it, and stops on TERM with 0.
@Suite("tunnelvision ui", .serialized)
struct UICommandTests {
    @Test("'tunnelvision ui --json --no-open' prints its address, serves the app behind the key, and exits 0 on TERM")
    func servesAndStops() async throws {
        let data = TemporaryDirectory("ui-data")
        let jar = data.url.appendingPathComponent("cookies").path
        let process = Process()
        process.executableURL = try BuiltProduct.url("tunnelvision")
        process.arguments = ["ui", "--json", "--no-open", "--data-dir", data.url.appendingPathComponent("history").path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let line = try await firstLine(of: out.fileHandleForReading)
        let announced = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
        let url = try #require(announced?["url"], "no url in \(line)")
        let listen = try #require(announced?["listen"])
        #expect(listen.hasPrefix("127.0.0.1:"))
        #expect(url.hasPrefix("http://\(listen)/?key="))
        #expect(url.count == "http://\(listen)/?key=".count + 64)
        #expect(announced?["dataDirectory"] == data.url.appendingPathComponent("history").path)

        let refused = try await ServedForTest.curl(["-o", "/dev/null", "-w", "%{http_code}", "http://\(listen)/"])
        #expect(refused.out == "401")
        let page = try await ServedForTest.curl(["-i", "-L", "-c", jar, "-b", jar, url])
        #expect(page.out.contains("HTTP/1.1 303 See Other"))
        #expect(page.out.contains("HTTP/1.1 200 OK"))
        #expect(page.out.contains("Content-Type: text/html; charset=utf-8"))
        #expect(page.out.contains("<html"))
        let api = try await ServedForTest.curl(["-s", "-b", jar, "http://\(listen)/api/settings"])
        #expect(api.out.hasPrefix("{\"error\": ") || api.out.hasPrefix("{"), "the API answers JSON: \(api.out.prefix(80))")

        kill(process.processIdentifier, SIGTERM)
        let status = try await onOwnThread { () -> Int32 in
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(status == 0)
        let logged = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(logged.contains(" GET / 401 "), "the refusal is logged: \(logged)")
        #expect(!logged.contains("key="), "the key never reaches the log")
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
