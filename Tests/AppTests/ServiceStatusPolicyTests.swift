import Foundation
import Shared
import Testing
import App
import TestSupport

/// What a data directory's service files mean (`ServiceStatusPolicy`): the lock says whether a
/// service lives, the record what it is doing — or what it was doing when it ended.
@Suite("Service status from its lock and record")
struct ServiceStatusPolicyTests {
    static func record(_ phase: ServiceRecord.Phase, problem: String? = nil) -> ServiceRecord {
        ServiceRecord(pid: 4242, target: .namespace("box"), inspect: false, phase: phase,
                      startedAt: Date(timeIntervalSince1970: 1_796_000_000), device: "tun7", problem: problem)
    }

    @Test("a held lock reads the record's phase; a service holding the lock before its first record is starting")
    func heldLockFollowsThePhase() {
        #expect(ServiceStatusPolicy.status(lockHeld: true, record: nil) == .connecting)
        #expect(ServiceStatusPolicy.status(lockHeld: true, record: Self.record(.starting)) == .connecting)
        #expect(ServiceStatusPolicy.status(lockHeld: true, record: Self.record(.live)) == .connected)
        #expect(ServiceStatusPolicy.status(lockHeld: true, record: Self.record(.stopping)) == .disconnecting)
        #expect(ServiceStatusPolicy.status(lockHeld: true, record: Self.record(.failed, problem: "x")) == .disconnecting)
    }

    @Test("a free lock is no service, whatever the record left behind says", arguments: [nil] + ServiceRecord.Phase.allCases)
    func freeLockIsDisconnected(phase: ServiceRecord.Phase?) {
        #expect(ServiceStatusPolicy.status(lockHeld: false, record: phase.map { Self.record($0) }) == .disconnected)
        #expect(ServiceReport(lockHeld: false, record: phase.map { Self.record($0) }).runningPID == nil)
    }

    @Test("a record that outlived its service says it ended without stopping; a failed one says why")
    func notesSayWhatHappened() throws {
        let killed = try #require(ServiceStatusPolicy.note(lockHeld: false, record: Self.record(.live)))
        #expect(killed.contains("pid 4242") && killed.contains("ended without stopping while live"))
        #expect(ServiceStatusPolicy.note(lockHeld: false, record: Self.record(.failed, problem: "no default route"))
                == "the last service failed: no default route")
        #expect(ServiceStatusPolicy.note(lockHeld: true, record: Self.record(.failed, problem: "gone"))
                == "stopping after a failure: gone")
        #expect(ServiceStatusPolicy.note(lockHeld: true, record: Self.record(.live)) == nil)
        #expect(ServiceStatusPolicy.note(lockHeld: false, record: nil) == nil)
    }

    @Test("status --json is one object Python reads: the live service's record, or the last one's beside a null service")
    func jsonReadsBack() throws {
        let live = ServiceStatusScreen(report: ServiceReport(lockHeld: true, record: Self.record(.live)), dataDirectory: "/d",
                                       runRecording: false)
        #expect(try PythonJSON.value(live.json, "state") == "\"live\"")
        #expect(try PythonJSON.value(live.json, "status") == "\"connected\"")
        #expect(try PythonJSON.value(live.json, "service.pid") == "4242")
        #expect(try PythonJSON.value(live.json, "service.target.kind") == "\"netns\"")
        #expect(try PythonJSON.value(live.json, "service.target.name") == "\"box\"")
        #expect(try PythonJSON.value(live.json, "service.device") == "\"tun7\"")
        #expect(try PythonJSON.value(live.json, "service.startedAt") == "\"2026-11-30T00:53:20Z\"")
        #expect(live.headline == "monitoring network namespace box through tun7 is live (service pid 4242, started 2026-11-30T00:53:20Z)")

        let ended = ServiceStatusScreen(report: ServiceReport(lockHeld: false, record: Self.record(.failed, problem: "gone")),
                                        dataDirectory: "/d", runRecording: true)
        #expect(try PythonJSON.value(ended.json, "state") == "\"off\"")
        #expect(try PythonJSON.value(ended.json, "service") == "null")
        #expect(try PythonJSON.value(ended.json, "lastService.problem") == "\"gone\"")
        #expect(try PythonJSON.value(ended.json, "run") == "true")
        #expect(ended.text.contains("a 'tunnelvision run' is recording there"))
    }

    @Test("a record written by hand in the documented form decodes; a target of an unknown kind is refused, not guessed")
    func recordDecodesTheDocumentedForm() throws {
        let text = #"{"inspect":false,"phase":"live","pid":7,"startedAt":"2026-12-05T10:00:00Z","target":{"kind":"pid","pid":99}}"#
        let record = try ServiceRecord.decoded(Data(text.utf8))
        #expect(record.target == .process(99) && record.phase == .live && record.device == nil)
        #expect(record.startedAt == Date(timeIntervalSince1970: 1_796_464_800))
        for target in [MonitoringTarget.host, .namespace("a b"), .process(1), .interface("any")] {
            var copy = record
            copy.target = target
            #expect(try ServiceRecord.decoded(copy.encoded()) == copy)
        }
        let unknown = #"{"inspect":false,"phase":"live","pid":7,"startedAt":"2026-12-05T10:00:00Z","target":{"kind":"vm"}}"#
        #expect(throws: ServiceRecordError.self) { try ServiceRecord.decoded(Data(unknown.utf8)) }
    }
}

/// Why a start failed, from what the service said before it ended (`ServiceStartFailure`).
@Suite("A failed start's reason")
struct ServiceStartFailureTests {
    @Test("its own error lines, without the program's prefix, are the reason; other chatter is left out")
    func errorLinesAreTheReason() {
        let said = "starting…\ntunnelvision: up: there is no network namespace box\ntunnelvision: kept a rule"
        #expect(ServiceStartFailure.reason(said: said, waitStatus: 1 << 8) == "there is no network namespace box; tunnelvision: kept a rule")
        #expect(ServiceStartFailure.reason(said: "plain words", waitStatus: 1 << 8) == "plain words")
    }

    @Test("silence says how it ended: an exit status, or the signal that killed it")
    func silenceSaysHowItEnded() {
        #expect(ServiceStartFailure.reason(said: "", waitStatus: 3 << 8) == "the service ended with exit status 3 and said nothing")
        #expect(ServiceStartFailure.reason(said: " \n", waitStatus: 9) == "the service was killed by signal 9")
    }
}
