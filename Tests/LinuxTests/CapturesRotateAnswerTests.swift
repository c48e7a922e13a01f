import App
import AppLinux
import Foundation
import Linux
import Shared
import TestSupport
import Testing

/// `captures rotate` (and `POST /api/captures/rotate`) when the tunnel's control socket answers
/// something other than ok: a real control server on the data directory's socket, scripted.
@Suite("captures rotate, when the tunnel does not rotate", .serialized)
struct CapturesRotateAnswerTests {
    @Test("a tunnel that answers 'not running' (its session ending) is said to be none, by the command and the API alike")
    func stoppingTunnel() async throws {
        let data = TemporaryDirectory("tv-rotate-answer")
        let served = try ControlSocketTests.Served(path: DataDirectoryLayout.controlSocket(in: data.url).path) { command in
            command == .rotateCapture ? .notRunning : .ok
        }
        defer { served.stop() }
        let result = try BuiltProduct.run(try BuiltProduct.url("tunnelvision"), ["captures", "rotate", "--data-dir", data.url.path])
        let sentence = "no tunnel is running on \(data.url.path), so there is no capture being recorded to rotate; "
            + "'tunnelvision run -- CMD' starts one (or give its --data-dir)"
        #expect(result.status == 1 && result.out.isEmpty)
        #expect(result.err == "tunnelvision: \(sentence)\n")
        let api = WebAPI(dataDirectory: data.url, tunnel: .channel, liveLine: { "" })
        let response = await api.respond(to: HTTPRequest(method: "POST", target: "/api/captures/rotate", path: "/api/captures/rotate"))
        #expect(response.status == .conflict)
        #expect(response.body == .bytes(Array(#"{"error":"\#(sentence)"}"#.utf8) + [0x0A]))
    }
}
