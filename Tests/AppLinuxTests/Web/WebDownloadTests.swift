#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared
import Testing
import TestSupport

/// Downloads from the real `tunnelvision ui` on loopback: a capture file far larger than a chunk
/// arrives whole (sha256) while the server's peak memory stays far below the file's size, and a
/// client that stops reading halfway holds up no one else.
@Suite("tunnelvision ui downloads", .serialized)
struct WebDownloadTests {
    static let captureBytes = 200 * 1024 * 1024

    /// The served `tunnelvision ui` over one data directory, logged in through curl's cookie jar.
    final class Served: @unchecked Sendable {
        let data: TemporaryDirectory
        let capture: URL
        let process = Process()
        let jar: String
        private(set) var listen = ""

        init() async throws {
            data = TemporaryDirectory("ui-download")
            let history = data.url.appendingPathComponent("history")
            let store = try FlowStore(dataDirectory: history, origin: "test")
            await store.close()
            let captures = history.appendingPathComponent("captures")
            try FileManager.default.createDirectory(at: captures, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            capture = captures.appendingPathComponent(CaptureFileName.make(sequence: 1, nanosecondsSince1970: 1_796_000_000_000_000_000))
            let made = try BuiltProduct.run(URL(fileURLWithPath: "/bin/bash"),
                                            ["-c", "head -c \(WebDownloadTests.captureBytes) /dev/urandom > '\(capture.path)'"])
            #expect(made.status == 0, "\(made.err)")
            jar = data.url.appendingPathComponent("cookies").path

            process.executableURL = try BuiltProduct.url("tunnelvision")
            process.arguments = ["ui", "--json", "--no-open", "--data-dir", history.path]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            let line = try await firstLine(of: out.fileHandleForReading)
            let announced = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let url = try #require(announced?["url"] as? String, "no url in \(line)")
            listen = try #require(announced?["listen"] as? String)
            let login = try await ServedForTest.curl(["-o", "/dev/null", "-w", "%{http_code}", "-c", jar, "-b", jar, url])
            #expect(login.out == "303")
        }

        deinit {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }

        /// The server process's peak resident memory so far (VmHWM), in bytes.
        func peakMemory() throws -> Int {
            let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }

        /// The session cookie curl keeps, as a Cookie header's value (curl writes an HttpOnly one
        /// as a line beginning "#HttpOnly_").
        func cookie() throws -> String {
            let text = try String(contentsOfFile: jar, encoding: .utf8)
            let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("#HttpOnly_") || !$0.hasPrefix("#") })
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            return "\(fields[5])=\(fields[6])"
        }

        var port: UInt16 { UInt16(listen.split(separator: ":").last ?? "") ?? 0 }
    }

    static func sha256(_ path: String) throws -> String {
        let result = try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), [path])
        return String(result.out.prefix(64))
    }

    @Test("a 200 MB capture downloads byte for byte, and the ui process's peak memory grows by far less than the file")
    func largeCaptureStreams() async throws {
        let served = try await Served()
        // Warm: the API's first answer (and its reading of the captures) is not the download's cost.
        let listing = try await ServedForTest.curl(["-b", served.jar, "http://\(served.listen)/api/captures"])
        #expect(listing.out.contains("\"sequence\":1"), "\(listing.out.prefix(300))")
        let before = try served.peakMemory()
        let copy = served.data.url.appendingPathComponent("downloaded.pcap").path
        let download = try await onOwnThread {
            try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/curl"),
                                 ["-s", "--max-time", "120", "-b", served.jar, "-o", copy, "-w", "%{http_code} %{size_download}",
                                  "http://\(served.listen)/api/captures/1"])
        }
        #expect(download.out == "200 \(Self.captureBytes)", "\(download.out) \(download.err)")
        #expect(try Self.sha256(copy) == Self.sha256(served.capture.path))
        let grown = try served.peakMemory() - before
        // The file is 200 MB; a chunked sender holds a chunk. 32 MB leaves room for the allocator.
        #expect(grown < 32 * 1024 * 1024, "the ui process's peak memory grew by \(grown / 1024 / 1024) MB for a 200 MB download")
    }

    @Test("a client that stops reading mid-download holds up no other connection, and the download it left goes on for others")
    func stalledClientStallsNoOne() async throws {
        let served = try await Served()
        let stalled = try RawHTTPClient(port: served.port)
        try stalled.send("GET /api/captures/1 HTTP/1.1\r\nHost: \(served.listen)\r\nCookie: \(try served.cookie())\r\n\r\n")
        let head = await stalled.read(timeout: .seconds(10)) { $0.contains("\r\n\r\n") }
        #expect(head.text.hasPrefix("HTTP/1.1 200 "), "\(head.text.prefix(200))")
        // It now reads no more: the kernel's buffers fill and the server's sends would block.
        #expect(try await eventually(within: .seconds(10)) { try SocketTable.unsentTCP(port: Int(served.port)).contains { $0 > 0 } },
                "the stalled client's buffers never filled")
        let started = ContinuousClock.now
        let settings = try await ServedForTest.curl(["-b", served.jar, "-o", "/dev/null", "-w", "%{http_code}",
                                                      "http://\(served.listen)/api/settings"])
        #expect(settings.out == "200")
        let partial = try await onOwnThread {
            try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/curl"),
                                 ["-s", "--max-time", "20", "-b", served.jar, "-o", "/dev/null",
                                  "-w", "%{http_code} %{size_download}", "http://\(served.listen)/api/captures/1"])
        }
        #expect(partial.out == "200 \(Self.captureBytes)", "a second download beside the stalled one: \(partial.out)")
        let waited = ContinuousClock.now - started
        #expect(waited < .seconds(20), "the others waited \(waited)")
        _ = stalled
    }
}
