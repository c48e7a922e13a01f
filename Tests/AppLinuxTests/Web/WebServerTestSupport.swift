import App
import AppLinux
import Foundation
import Shared
import Synchronization
import Testing
import TestSupport

/// Answers what the tests ask: `/api/live` opens an event stream, a POST echoes its body, any
/// other path says its own name.
struct EchoResponder: WebResponder {
    func respond(to request: HTTPRequest) async -> HTTPResponse {
        if request.path == "/api/live" { return HTTPResponse(status: .ok, body: .eventStream) }
        let text = request.method == "POST" ? "posted " + String(decoding: request.body, as: UTF8.self) : "hello " + request.path
        return HTTPResponse(status: .ok, headers: HTTPHeaders([("Content-Type", "text/plain")]), body: .bytes(Array(text.utf8)))
    }
}

/// The lines a server logged.
final class LoggedLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }

    /// Whether a line matching `predicate` is logged within two seconds (a close is logged just
    /// after its answer went out, so a test that has the answer may be a moment early).
    func eventually(_ predicate: @escaping (String) -> Bool) async -> Bool {
        await TestSupport.eventually(within: .seconds(2)) { all.contains(where: predicate) }
    }
}

/// A server on 127.0.0.1, a free port, started for one test and stopped after.
final class ServedForTest: @unchecked Sendable {
    let server: WebServer
    let log = LoggedLines()

    init(responder: any WebResponder = EchoResponder(), limits: WebServerLimits = .standard) throws {
        let log = self.log
        server = try WebServer(responder: responder, limits: limits) { log.append($0) }
        server.start()
    }

    deinit { server.stop() }

    var port: UInt16 { server.address.port }
    var base: String { "http://127.0.0.1:\(port)" }

    /// A new address (its key works once), as `tunnelvision ui link` gets one.
    func freshURL() throws -> String {
        try #require(server.mintAddress()?.url, "the server made no address")
    }

    /// Logs in with a new address and returns the Cookie header's value.
    func cookie() async throws -> String {
        let client = try RawHTTPClient(port: port)
        let path = String(try freshURL().dropFirst(base.count))
        try client.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
        let response = await client.response()
        guard let line = response.split(separator: "\r\n").first(where: { $0.hasPrefix("Set-Cookie: ") }) else {
            throw RawHTTPClient.Failure(description: "no cookie in \(response)")
        }
        return String(line.dropFirst("Set-Cookie: ".count).prefix { $0 != ";" })
    }

    /// curl with `arguments`, its status and output (`-s` always; add `-i` for the head).
    static func curl(_ arguments: [String]) async throws -> (status: Int32, out: String, err: String) {
        try await onOwnThread { try BuiltProduct.run(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "--max-time", "10"] + arguments) }
    }
}

/// Runs a blocking call (curl, a raw socket's read) on a thread of its own: the server's responder
/// runs on the shared cooperative pool, which a test blocking its threads would starve. Checks stay
/// in the test's own task, where Swift Testing attributes them.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// The first line a process writes (`tunnelvision ui --json` announcing its address), read on a
/// thread of its own, without its newline.
func firstLine(of reader: FileHandle) async throws -> String {
    try await onOwnThread { () -> String in
        var bytes: [UInt8] = []
        while let byte = try reader.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") { bytes.append(byte) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
