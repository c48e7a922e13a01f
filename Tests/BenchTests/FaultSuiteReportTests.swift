import Bench
import Foundation
import Testing

@Suite("The fault suite's report")
struct FaultSuiteReportTests {
    static func passing() -> FaultSuiteReport {
        var report = FaultSuiteReport()
        report.connectionsHeld = 2_000
        report.connectionsWorkingAfter = 2_000
        report.faults = [.init(name: "kill -9 mid-download", survived: true, detail: "curl gone in 0.1 s")]
        report.badInputsTried = 100
        return report
    }

    @Test("a suite where everything held, survived and arrived intact passes")
    func passesWhenEverythingHeld() {
        #expect(Self.passing().passed)
        #expect(Self.passing().text.hasSuffix("fault suite: passed"))
    }

    @Test("one connection that stopped answering, one fault not survived, one crash or one lost byte fails it")
    func failsOnAnyLoss() {
        var connection = Self.passing()
        connection.connectionsWorkingAfter -= 1
        var fault = Self.passing()
        fault.faults.append(.init(name: "disk full", survived: false, detail: "download cut at 3 MB"))
        var crash = Self.passing()
        crash.badInputsCrashed = 1
        var lost = Self.passing()
        lost.bytesLost = 1
        for report in [connection, fault, crash, lost] {
            #expect(!report.passed)
            #expect(report.text.hasSuffix("fault suite: FAILED"))
        }
        #expect(fault.text.contains("FAIL disk full: download cut at 3 MB"))
    }

    @Test("a suite that held nothing, injected nothing or tried no bad input has not shown anything and fails")
    func failsWhenNothingWasTried() {
        var nothingHeld = Self.passing()
        nothingHeld.connectionsHeld = 0
        nothingHeld.connectionsWorkingAfter = 0
        var noFaults = Self.passing()
        noFaults.faults = []
        var noInputs = Self.passing()
        noInputs.badInputsTried = 0
        for report in [nothingHeld, noFaults, noInputs] { #expect(!report.passed) }
    }

    @Test("a run of only some scenarios (--only signals) passes when its faults were survived, and says the other figures were not measured")
    func onlySomeScenariosPassOnTheirOwnFigures() throws {
        var signals = FaultSuiteReport()
        signals.measured = []
        signals.faults = [.init(name: "kill -HUP tunnelvision run", survived: true, detail: "exit status 129")]
        #expect(signals.passed)
        #expect(signals.text.hasSuffix("fault suite: passed"))
        #expect(signals.text.contains("connections held: not measured"))
        #expect(signals.text.contains("bad inputs: not measured"))
        let object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(signals)) as? [String: Any])
        #expect(object["connectionsHeld"] == nil && object["badInputsTried"] == nil && object["passed"] as? Bool == true)

        var failedSignal = signals
        failedSignal.faults.append(.init(name: "kill -TERM tunnelvision run", survived: false, detail: "exit status 1"))
        #expect(!failedSignal.passed)
        // A measured figure still judges: garbage datagrams that tried nothing did not pass.
        var garbage = signals
        garbage.measured = .badInputs
        #expect(!garbage.passed)
        garbage.badInputsTried = 2_000
        #expect(garbage.passed)
        garbage.badInputsCrashed = 1
        #expect(!garbage.passed)
    }

    @Test("the JSON carries the figures, the counts derived from the faults and the verdict")
    func jsonCarriesTheFigures() throws {
        var report = Self.passing()
        report.faults.append(.init(name: "disk full", survived: false, detail: "x"))
        let object = try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        #expect(object["connectionsHeld"] as? Int == 2_000)
        #expect(object["faultsInjected"] as? Int == 2)
        #expect(object["faultsSurvived"] as? Int == 1)
        #expect(object["bytesLost"] as? Int == 0)
        #expect(object["passed"] as? Bool == false)
        #expect((object["faults"] as? [[String: Any]])?.last?["name"] as? String == "disk full")
    }
}
