import Testing
@testable import Shared

@Suite struct AuditCheckKeyTests {
    @Test("every check's JSON key is its stable raw value, and finding ids count from F1")
    func keysAreTheRawValues() {
        for check in AuditCheck.allCases { #expect("\(check.jsonKey)" == check.rawValue) }
        #expect((0..<3).map(EvidenceBundle.findingID) == ["F1", "F2", "F3"])
    }
}
