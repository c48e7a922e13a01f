import Foundation
import Shared
import Testing
import TestSupport
import App

/// The Dashboard's monitoring control through the web API (`/api/monitoring…`), over the seed's
/// scripted manager: Start sets up and starts, a denial is a failed state whose sentence says what
/// to do and whose action is Try again, Stop stops, and nothing is offered while a `run` records.
@Suite("The web API's monitoring control")
struct WebAPIMonitoringTests {
    typealias Manager = TunnelControllerTests.ScriptedManager
    typealias C = WebAPICommandParityTests

    /// The API over `manager`, the service record `record` (held lock when `live`).
    static func api(_ manager: Manager, record: ServiceRecord? = nil, held: Bool = false, runRecording: Bool = false) -> WebAPI {
        let monitoring = MonitoringControl(manager: manager, dataDirectory: "/d",
                                           report: { () throws(TunnelControlError) in ServiceReport(lockHeld: held, record: record) },
                                           runRecording: { runRecording })
        return WebAPI(dataDirectory: URL(fileURLWithPath: "/d"), tunnel: C.noTunnel, liveLine: { "" }, monitoring: monitoring)
    }

    static func value(_ response: HTTPResponse, _ path: String) throws -> String {
        try PythonJSON.value(C.text(response), path)
    }

    @Test("off: the state, a sentence naming what Start watches, and Start offered")
    func offOffersStart() async throws {
        let response = await C.ask(Self.api(Manager(status: .disconnected)), "GET", "/api/monitoring")
        #expect(response.status == .ok)
        #expect(try Self.value(response, "state") == "\"off\"")
        #expect(try Self.value(response, "actions") == "[\"start\"]")
        #expect(try Self.value(response, "target") == "{\"kind\": \"host\"}")
        #expect(try Self.value(response, "sentence") == "\"Start monitoring watches the host (the namespace the service runs in) until you stop it.\"")
        #expect(try Self.value(response, "status.state") == "\"off\"")
    }

    @Test("Start with nothing set up sets up and starts, then is live and offers Stop; Stop stops")
    func startThenStop() async throws {
        let manager = Manager(status: .notInstalled)
        let record = ServiceRecord(pid: 77, target: .host, inspect: false, phase: .live, startedAt: Date(timeIntervalSince1970: 1_796_464_800), device: "tv0")
        let api = Self.api(manager, record: record, held: true)
        let started = await C.ask(api, "POST", "/api/monitoring/start")
        #expect(try Self.value(started, "state") == "\"live\"")
        #expect(try Self.value(started, "actions") == "[\"stop\"]")
        #expect(try Self.value(started, "status.service.pid") == "77")
        #expect(await manager.calls == ["load", "install the host (the namespace the service runs in)", "start", "load"])
        let stopped = await C.ask(api, "POST", "/api/monitoring/stop")
        #expect(try Self.value(stopped, "state") == "\"off\"")
        #expect(await manager.calls.suffix(2) == ["stop", "load"])
    }

    @Test("a denial is failed, says to use sudo, offers Try again, and stays shown when asked again")
    func aDenialSaysWhatToDo() async throws {
        let manager = Manager(status: .notInstalled)
        await manager.script { $0.installFailure = .permissionDenied }
        let api = Self.api(manager)
        let denied = await C.ask(api, "POST", "/api/monitoring/start")
        #expect(try Self.value(denied, "state") == "\"failed\"")
        #expect(try Self.value(denied, "actions") == "[\"tryAgain\"]")
        #expect(try Self.value(denied, "sentence").contains("Permission denied: monitoring needs root"))
        #expect(try Self.value(denied, "sentence").contains("sudo"))
        let again = await C.ask(api, "GET", "/api/monitoring")
        #expect(try Self.value(again, "state") == "\"failed\"", "a failure stays until the person acts")
    }

    @Test("while a run records into the directory, Start is not offered")
    func aRunRecording() async throws {
        let response = await C.ask(Self.api(Manager(status: .disconnected), runRecording: true), "GET", "/api/monitoring")
        #expect(try Self.value(response, "actions") == "[]")
        #expect(try Self.value(response, "sentence") == "\"A 'tunnelvision run' is recording here; it stops with its command.\"")
    }

    @Test("the routes take their method only, and no parameters")
    func methodsAndParameters() async throws {
        let api = Self.api(Manager(status: .disconnected))
        #expect(await C.ask(api, "POST", "/api/monitoring").status == .methodNotAllowed)
        #expect(await C.ask(api, "GET", "/api/monitoring/start").status == .methodNotAllowed)
        #expect(await C.ask(api, "POST", "/api/monitoring/stop", [("now", "1")]).status == .badRequest)
        let without = await C.ask(C.api(URL(fileURLWithPath: "/d")), "GET", "/api/monitoring")
        #expect(without.status == .internalServerError, "a server without the control says so")
        #expect(try PythonJSON.value(C.text(without), "error") == "\"this server cannot start or stop monitoring\"")
    }
}
