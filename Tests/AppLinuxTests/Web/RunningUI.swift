#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import Testing
import TestSupport

/// The real `tunnelvision ui --json` on a data directory of its own, its announcement read, its
/// standard error kept; stopped with TERM (or killed) when the test is done with it.
final class RunningUI: @unchecked Sendable {
    let data: TemporaryDirectory
    let history: URL
    let process = Process()
    let url: String
    let listen: String
    let announced: [String: Any]
    private let errors = Collected()

    /// Text that arrives on one thread and is read on another.
    private final class Collected: Sendable {
        let text = Mutex("")
    }

    /// `environment` replaces the test's own for the server; `arguments` go after `ui --json`.
    init(arguments: [String] = ["--no-open"], environment: [String: String]? = nil, data: TemporaryDirectory = TemporaryDirectory("ui")) async throws {
        self.data = data
        history = data.url.appendingPathComponent("history")
        try FileManager.default.createDirectory(at: history, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        process.executableURL = try BuiltProduct.url("tunnelvision")
        process.arguments = ["ui", "--json", "--data-dir", history.path] + arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let errors = self.errors
        err.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            errors.text.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
        }
        try process.run()
        let line = try await firstLine(of: out.fileHandleForReading)
        announced = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
        url = try #require(announced["url"] as? String, "no url in \(line)")
        listen = try #require(announced["listen"] as? String)
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    var base: String { "http://\(listen)" }
    var port: UInt16 { UInt16(listen.split(separator: ":").last!)! }
    /// What it wrote on standard error so far.
    var stderr: String { errors.text.withLock { $0 } }

    /// Stops it with TERM and returns its exit status.
    func stop() async throws -> Int32 {
        kill(process.processIdentifier, SIGTERM)
        return try await onOwnThread { [process] () -> Int32 in
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// Trades `url`'s key for the session cookie; the Cookie header's value, or nil when refused.
    func login(_ url: String) async throws -> String? {
        let answer = try await ServedForTest.curl(["-i", url])
        guard answer.out.hasPrefix("HTTP/1.1 303"),
              let line = answer.out.split(separator: "\r\n").first(where: { $0.hasPrefix("Set-Cookie: ") }) else { return nil }
        return String(line.dropFirst("Set-Cookie: ".count).prefix { $0 != ";" })
    }

    /// `tunnelvision ui link` (more `arguments` after it) on this server's data directory.
    func link(_ arguments: [String] = []) throws -> (status: Int32, out: String, err: String) {
        try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["ui", "link", "--data-dir", history.path] + arguments)
    }
}
