import Foundation
@testable import Linux
import Testing

@Suite("The leftovers of a run's trust directory")
struct InspectionTrustLeftoversTests {
    @Test("a directory is named for its creator, and only a dead creator's is left over")
    func deadCreatorsOnly() {
        let entries = ["tunnelvision-trust-41-a1B2c3", "tunnelvision-trust-42-zzzzzz", "tunnelvision-trust-abcdef",
                       "tunnelvision-trust-43-short", "tunnelvision-trust--1-aaaaaa", "other-41-a1B2c3", "tunnelvision-trust-44-a1B2c3"]
        let alive: Set<pid_t> = [42]
        #expect(InspectionTrustLeftovers.abandoned(entries, isAlive: alive.contains)
                == ["tunnelvision-trust-41-a1B2c3", "tunnelvision-trust-44-a1B2c3"])
    }

    @Test("the template carries this process's pid and mkdtemp's six letters")
    func template() {
        let template = InspectionTrustLeftovers.template(in: "/tmp")
        #expect(template == "/tmp/tunnelvision-trust-\(getpid())-XXXXXX")
        #expect(InspectionTrustLeftovers.creator(of: String(template.dropFirst(5))) == getpid())
    }

    @Test("the parent is TMPDIR when it is set and not empty, else /tmp")
    func parent() {
        #expect(InspectionTrustLeftovers.parent(environment: ["TMPDIR": "/var/tmp"]) == "/var/tmp")
        #expect(InspectionTrustLeftovers.parent(environment: ["TMPDIR": ""]) == "/tmp")
        #expect(InspectionTrustLeftovers.parent(environment: [:]) == "/tmp")
    }
}
