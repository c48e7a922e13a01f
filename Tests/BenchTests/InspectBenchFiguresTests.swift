import Bench
import Testing

/// The inspection targets (issue 15 § Speed, the passthrough bound raised by issue 23), judged on
/// both sides of each bound.
@Suite("InspectBenchTargets")
struct InspectBenchFiguresTests {
    static func figures(inspect: Double, rate: Double) -> [InspectBenchPath: InspectPathFigures] {
        [
            .inspect: InspectPathFigures(throughput: [inspect, inspect * 2, inspect / 2], connectionRate: [rate]),
            .passthrough: InspectPathFigures(throughput: [1_000], connectionRate: [500]),
            .mitmproxy: InspectPathFigures(throughput: [140, 126, 154], connectionRate: [100]),
        ]
    }

    @Test("exactly on every bound meets every target: 0.7× passthrough, 5× and 3× mitmproxy, one leaf")
    func onTheBounds() {
        let verdicts = InspectBenchTargets.verdicts(Self.figures(inspect: 700, rate: 300), leavesMinted: 1)
        #expect(verdicts.map(\.measure) == InspectBenchTargets.Measure.allCases)
        #expect(verdicts.allSatisfy { $0.met == true })
    }

    @Test("just past every bound misses every target; a second leaf for the host misses, and so does none")
    func pastTheBounds() {
        let verdicts = InspectBenchTargets.verdicts(Self.figures(inspect: 699, rate: 299), leavesMinted: 2)
        #expect(verdicts.allSatisfy { $0.met == false })
        #expect(InspectBenchTargets.verdicts(Self.figures(inspect: 700, rate: 300), leavesMinted: 0).last?.met == false)
    }

    @Test("ratios are of medians; a path not measured, or one that carried nothing, is not judged")
    func notMeasured() {
        var figures = Self.figures(inspect: 840, rate: 300)
        let comparison = InspectBenchComparison(figures)
        #expect(comparison.throughputOfPassthrough == 0.84 && comparison.throughputOfMitmproxy == 6)
        #expect(comparison.connectionRateOfPassthrough == 0.6 && comparison.connectionRateOfMitmproxy == 3)
        figures[.mitmproxy] = nil
        figures[.passthrough] = InspectPathFigures(throughput: [0])
        let verdicts = InspectBenchTargets.verdicts(figures, leavesMinted: nil)
        #expect(verdicts.allSatisfy { $0.met == nil })
    }
}
