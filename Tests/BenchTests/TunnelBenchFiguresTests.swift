import Bench
import Testing

/// A path against the direct path, and full capture against the disk, worked by hand.
@Suite("TunnelBenchFigures")
struct TunnelBenchFiguresTests {
    /// Direct: medians 15 Gbit/s up, 12 down, 20 µs, 10 000 connections/s.
    static var direct: PathFigures {
        var figures = PathFigures()
        figures.upload = [14e9, 15e9, 16e9]
        figures.download = [12e9, 11e9, 13e9]
        figures.roundTrip = [21, 20, 19]
        figures.connectionRate = [10_000, 9_000, 11_000]
        return figures
    }

    @Test("a round's runs are added after the earlier rounds', each figure to its own")
    func rounds() {
        var figures = PathFigures()
        var round = PathFigures()
        round.upload = [14e9]
        round.roundTrip = [21]
        figures.append(round)
        round.upload = [16e9]
        round.download = [12e9]
        round.roundTrip = [19]
        round.connectionRate = [9_000]
        figures.append(round)
        #expect(figures.upload == [14e9, 16e9])
        #expect(figures.download == [12e9])
        #expect(figures.roundTrip == [21, 19])
        #expect(figures.connectionRate == [9_000])
    }

    @Test("ratios are medians over direct's medians, and latency is the difference of medians")
    func comparison() throws {
        var tunnel = PathFigures()
        tunnel.upload = [12e9, 3e9, 13e9]          // median 12e9 — one bad run does not count
        tunnel.download = [6e9]
        tunnel.roundTrip = [31, 30, 50]            // median 31
        tunnel.connectionRate = [8_500, 8_000, 9_000]
        let versus = PathComparison(tunnel, direct: Self.direct)
        #expect(versus.uploadRatio == 0.8)
        #expect(versus.downloadRatio == 0.5)
        #expect(versus.addedRoundTripMicroseconds == 11)
        #expect(versus.connectionRateRatio == 0.85)
    }

    @Test("a figure missing on either side has no ratio, and a path faster than direct adds negative latency")
    func missing() {
        var peer = PathFigures()
        peer.roundTrip = [18]
        let versus = PathComparison(peer, direct: Self.direct)
        #expect(versus.uploadRatio == nil && versus.downloadRatio == nil && versus.connectionRateRatio == nil)
        #expect(versus.addedRoundTripMicroseconds == -2)
        #expect(PathComparison(Self.direct, direct: PathFigures()).uploadRatio == nil)
    }

    @Test("no ratio to a direct rate of zero")
    func zeroDirect() {
        #expect(PathComparison.ratio(5, to: 0) == nil)
        #expect(PathComparison.ratio(5, to: 10) == 0.5)
    }

    @Test("full capture: 4 Gbit/s is 500 MB/s, half of a disk writing 1 000 MB/s")
    func fullCapture() {
        var figures = FullCaptureFigures()
        figures.download = [4e9, 3e9, 5e9]
        figures.diskWrite = [1e9, 0.9e9, 1.2e9]
        #expect(figures.ratioToDisk == 0.5)
        #expect(FullCaptureFigures().ratioToDisk == nil)
    }
}
