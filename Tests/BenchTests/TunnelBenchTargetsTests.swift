import Bench
import Testing

/// The targets, judged on both sides of each bound.
@Suite("TunnelBenchTargets")
struct TunnelBenchTargetsTests {
    static func tunnel(upload: Double, download: Double, roundTrip: Double, rate: Double) -> PathComparison {
        var direct = PathFigures()
        direct.upload = [10e9]
        direct.download = [10e9]
        direct.roundTrip = [20]
        direct.connectionRate = [1_000]
        var tunnel = PathFigures()
        tunnel.upload = [upload]
        tunnel.download = [download]
        tunnel.roundTrip = [roundTrip]
        tunnel.connectionRate = [rate]
        return PathComparison(tunnel, direct: direct)
    }

    @Test("exactly on every bound meets every target: 80 %, +15 µs, 80 %, 50 MB")
    func onTheBounds() {
        let verdicts = TunnelBenchTargets.verdicts(tunnel: Self.tunnel(upload: 8e9, download: 8e9, roundTrip: 35, rate: 800),
                                                   memory: ProcessMemory(residentBytes: 50_000_000, peakResidentBytes: 60_000_000))
        #expect(verdicts.map(\.measure) == TunnelBenchTargets.Measure.allCases)
        #expect(verdicts.allSatisfy { $0.met == true })
    }

    @Test("just past every bound misses every target; the peak alone does not judge memory")
    func pastTheBounds() {
        let verdicts = TunnelBenchTargets.verdicts(tunnel: Self.tunnel(upload: 7.9e9, download: 7.99e9, roundTrip: 35.1, rate: 799),
                                                   memory: ProcessMemory(residentBytes: 50_000_001, peakResidentBytes: 50_000_001))
        #expect(verdicts.allSatisfy { $0.met == false })
        let memory = TunnelBenchTargets.verdicts(tunnel: Self.tunnel(upload: 8e9, download: 8e9, roundTrip: 20, rate: 900),
                                                 memory: ProcessMemory(residentBytes: 30_000_000, peakResidentBytes: 90_000_000))
        #expect(memory.last?.met == true)
    }

    @Test("a figure not measured is not judged")
    func notMeasured() {
        let verdicts = TunnelBenchTargets.verdicts(tunnel: PathComparison(PathFigures(), direct: PathFigures()), memory: nil)
        #expect(verdicts.count == 5)
        #expect(verdicts.allSatisfy { $0.value == nil && $0.met == nil })
    }
}
