/// The targets for the web app under a running tunnel (issue 25, "Speed (benchmark)"),
/// and the figures judged against them over every hold of a run.
package struct UILiveFigures: Sendable, Equatable {
    /// The live Timeline applies a second's new flows in at most this much script time, ms.
    package static let applyMillisecondsPerSecondTarget = 50.0
    /// The ui server's CPU while a tunnel runs flat out with pages open, share of one core.
    package static let serverCoreShareTarget = 0.03

    package let holds: [UIHoldReport]

    package init(holds: [UIHoldReport]) { self.holds = holds }

    package var applies: [UIHoldReport.Apply] { holds.flatMap(\.applies) }
    package var durations: [Double] { applies.map(\.duration) }
    package var rowsDrawn: Int { applies.reduce(0) { $0 + $1.applied } }
    package var perSecondOfFlows: [Double] { holds.flatMap(\.millisecondsPerSecondOfFlows) }
    var laterPerSecondOfFlows: [Double] { holds.flatMap(\.laterMillisecondsPerSecondOfFlows) }
    /// Each hold's ui server CPU as a share of one core.
    package var serverCoreShares: [Double] {
        holds.compactMap { $0.seconds > 0 ? $0.serverCPUSeconds / $0.seconds : nil }
    }

    /// The judged figure is the median over the later half of each hold's merges that drew rows
    /// (the page open longest, its list longest; the whole hold's median and max are printed
    /// beside it); nil when no merge drew a row: the flows never reached the page.
    package var applyVerdict: Verdict {
        Verdict(value: BenchStatistics.median(laterPerSecondOfFlows), target: Self.applyMillisecondsPerSecondTarget)
    }

    /// The median of the holds' shares.
    package var serverVerdict: Verdict {
        Verdict(value: BenchStatistics.median(serverCoreShares), target: Self.serverCoreShareTarget)
    }

    /// A figure that must stay at or under its target.
    package struct Verdict: Sendable, Equatable {
        package let value: Double?
        package let target: Double

        package init(value: Double?, target: Double) {
            self.value = value
            self.target = target
        }

        /// "met", "MISSED by N %" (how far over, as a share of the target) or "no figure".
        package var said: String {
            guard let value else { return "no figure" }
            return value <= target ? "met" : String(format: "MISSED by %.0f %%", (value / target - 1) * 100)
        }
    }
}
