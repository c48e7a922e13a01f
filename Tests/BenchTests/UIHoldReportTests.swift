import Foundation
import Bench
import Testing

/// Reading `bench_ui.py hold`'s JSON lines and judging them: lines in the shape the driver prints
/// (Tests/Browser/bench_ui.py), figures made up so the arithmetic is checked by hand.
@Suite("UIHoldReport")
struct UIHoldReportTests {
    static let line = """
    {"seconds": 20.5, "serverCPUSeconds": 0.41, "browserCPUSeconds": 3.2, "readersCPUSeconds": 0.1, \
    "applies": [{"start": 1000.0, "duration": 4.0, "applied": 0, "received": 0}, \
    {"start": 3000.0, "duration": 6.0, "applied": 40, "received": 80}, \
    {"start": 5000.0, "duration": 3.0, "applied": 0, "received": 40}, \
    {"start": 6000.0, "duration": 10.0, "applied": 20, "received": 60}], \
    "pollAnswers": [12.5, 30.0], "contactRequests": 3, "streamEvents": [20, 21], "dashboardStates": ["Monitoring is on"]}
    """

    @Test("the last whole line is the hold's: one cut by the stop is passed over")
    func lastWholeLine() throws {
        let earlier = #"{"seconds": 1, "serverCPUSeconds": 0, "browserCPUSeconds": 0, "readersCPUSeconds": 0, "applies": [], "#
            + #""pollAnswers": [], "contactRequests": 0, "streamEvents": [], "dashboardStates": []}"#
        let report = try #require(UIHoldReport.last(in: earlier + "\n" + Self.line + "\n" + #"{"seconds": 21.5, "serverCPU"#))
        #expect(report.seconds == 20.5 && report.serverCPUSeconds == 0.41 && report.readersCPUSeconds == 0.1)
        #expect(report.applies.count == 4 && report.applies[1] == .init(start: 3000, duration: 6, applied: 40, received: 80))
        #expect(report.pollAnswers == [12.5, 30] && report.contactRequests == 3 && report.streamEvents == [20, 21])
        #expect(UIHoldReport.last(in: "Traceback (most recent call last):\n") == nil)
    }

    @Test("script per second of flows: each merge that drew rows over the seconds since the one before")
    func perSecondOfFlows() throws {
        let report = try #require(UIHoldReport.last(in: Self.line))
        // 6 ms over 2 s; the 0-row merge is left out; 10 ms over 1 s. The first has no stretch.
        #expect(report.millisecondsPerSecondOfFlows == [3, 10])
        #expect(report.laterMillisecondsPerSecondOfFlows == [10])
    }

    @Test("the verdicts: the later merges' median per second of flows against 50 ms, the median CPU share against 3 %")
    func verdicts() throws {
        let report = try #require(UIHoldReport.last(in: Self.line))
        let figures = UILiveFigures(holds: [report, report])
        #expect(figures.rowsDrawn == 120 && figures.durations.count == 8)
        #expect(figures.applyVerdict == .init(value: 10, target: 50) && figures.applyVerdict.said == "met")
        #expect(abs((figures.serverVerdict.value ?? 0) - 0.02) < 1e-12 && figures.serverVerdict.said == "met")
        #expect(UILiveFigures.Verdict(value: 0.045, target: 0.03).said == "MISSED by 50 %")
        #expect(UILiveFigures(holds: [UIHoldReport(applies: [], seconds: 10, serverCPUSeconds: 1)]).applyVerdict.said == "no figure")
    }
}
