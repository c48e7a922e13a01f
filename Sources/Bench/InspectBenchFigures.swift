/// The three ways `tvlab bench inspect` sends one HTTPS client to the lab's server.
package enum InspectBenchPath: String, CaseIterable, Sendable, Codable {
    /// `tunnelvision run --inspect`: the tunnel terminates TLS with a leaf from the person's CA.
    case inspect
    /// `tunnelvision run` without `--inspect`: the client's TLS crosses the tunnel untouched.
    case passthrough
    /// mitmdump as the HTTPS proxy the client uses (no tunnel): the comparison.
    case mitmproxy
}

/// One path's figures: every run's result as it came. A figure never measured (its runs failed,
/// the proxy missing) has no samples and no median.
package struct InspectPathFigures: Sendable, Equatable, Codable {
    /// Single-stream HTTPS download rates, bytes/s (curl's speed_download), one per run.
    package var throughput: [Double] = []
    /// New TLS connections per second (connect, handshake, GET, close, in sequence), one per run.
    package var connectionRate: [Double] = []

    package init(throughput: [Double] = [], connectionRate: [Double] = []) {
        self.throughput = throughput
        self.connectionRate = connectionRate
    }

    var medianThroughput: Double? { BenchStatistics.median(throughput) }
    package var medianConnectionRate: Double? { BenchStatistics.median(connectionRate) }
}

/// The targets for inspection (issue 15 § Speed; issue 23 § Speed raised the passthrough bound),
/// and the verdict on each. A target whose figure is missing is not judged: it is neither met nor
/// failed.
package enum InspectBenchTargets {
    /// Inspected throughput, at least this fraction of passthrough's (issue 23 raised issue 15's 0.5).
    package static let throughputOfPassthrough = 0.7
    /// Inspected throughput, at least this multiple of mitmproxy's.
    package static let throughputOfMitmproxy = 5.0
    /// Inspected connections/s, at least this multiple of mitmproxy's.
    package static let connectionRateOfMitmproxy = 3.0
    /// Leaves minted for one host however many connections it gets.
    static let leavesPerHost = 1

    package enum Measure: String, CaseIterable, Sendable, Equatable, Codable {
        case throughputOfPassthrough, throughputOfMitmproxy, connectionRateOfMitmproxy, leavesMinted
    }

    package struct Verdict: Sendable, Equatable, Codable {
        package let measure: Measure
        /// The ratio judged, or the leaves minted; nil when it was not measured.
        package let value: Double?
        package let target: Double

        package init(measure: Measure, value: Double?, target: Double) {
            self.measure = measure
            self.value = value
            self.target = target
        }

        /// Nil when there is nothing to judge.
        package var met: Bool? {
            guard let value else { return nil }
            return measure == .leavesMinted ? value == target : value >= target
        }
    }

    /// Every target, in the order the report lists them. `leavesMinted` is what the inspecting
    /// tunnel's `stats` said after all its connections to the one host.
    package static func verdicts(_ figures: [InspectBenchPath: InspectPathFigures], leavesMinted: Int?) -> [Verdict] {
        let comparison = InspectBenchComparison(figures)
        return [
            Verdict(measure: .throughputOfPassthrough, value: comparison.throughputOfPassthrough, target: throughputOfPassthrough),
            Verdict(measure: .throughputOfMitmproxy, value: comparison.throughputOfMitmproxy, target: throughputOfMitmproxy),
            Verdict(measure: .connectionRateOfMitmproxy, value: comparison.connectionRateOfMitmproxy, target: connectionRateOfMitmproxy),
            Verdict(measure: .leavesMinted, value: leavesMinted.map(Double.init), target: Double(leavesPerHost)),
        ]
    }
}

/// The inspecting path set against the other two, as ratios of medians; nil where a side is
/// missing or the reference carried nothing.
package struct InspectBenchComparison: Sendable, Equatable, Codable {
    package let throughputOfPassthrough: Double?
    package let throughputOfMitmproxy: Double?
    package let connectionRateOfPassthrough: Double?
    package let connectionRateOfMitmproxy: Double?

    package init(_ figures: [InspectBenchPath: InspectPathFigures]) {
        let inspect = figures[.inspect], passthrough = figures[.passthrough], mitmproxy = figures[.mitmproxy]
        throughputOfPassthrough = PathComparison.ratio(inspect?.medianThroughput, to: passthrough?.medianThroughput)
        throughputOfMitmproxy = PathComparison.ratio(inspect?.medianThroughput, to: mitmproxy?.medianThroughput)
        connectionRateOfPassthrough = PathComparison.ratio(inspect?.medianConnectionRate, to: passthrough?.medianConnectionRate)
        connectionRateOfMitmproxy = PathComparison.ratio(inspect?.medianConnectionRate, to: mitmproxy?.medianConnectionRate)
    }
}
