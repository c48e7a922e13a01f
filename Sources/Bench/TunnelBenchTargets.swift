/// The targets for the tunnel with capture at `metadata` detail, and the verdict on each.
/// A target whose figure is missing is not judged: it is neither met nor failed.
package enum TunnelBenchTargets {
    /// Upload and download, each at least this fraction of the direct path's.
    static let throughputRatio = 0.8
    /// At most this many microseconds added to the direct path's median 1-byte round trip.
    package static let addedRoundTripMicroseconds = 15.0
    /// Connections per second, at least this fraction of the direct path's.
    package static let connectionRateRatio = 0.8
    /// Resident memory of the tunnel process with 1 000 flows open, in bytes (50 MB, decimal).
    package static let residentBytes: UInt64 = 50_000_000
    /// A routed or passive service's resident memory with 1 000 flows open (issue 24: 60 MB).
    package static let serviceResidentBytes: UInt64 = 60_000_000
    /// What the kernel may drop before a passive service reads it, as a share of what it saw (0.1 %).
    package static let passiveDropShare = 0.001
    /// A service's connections/s asking each flow's program, at least this fraction of its rate
    /// without (issue 24: the lookup lowers it by 5 % at most).
    package static let programLookupConnectionRatio = 0.95
    /// How many flows the memory target is measured with.
    package static let openFlows = 1_000

    package enum Measure: String, CaseIterable, Sendable, Equatable {
        case upload, download, roundTrip, connectionRate, residentMemory
    }

    package struct Verdict: Sendable, Equatable {
        package let measure: Measure
        /// The figure judged: a ratio, added µs or bytes; nil when it was not measured.
        package let value: Double?
        package let target: Double

        /// Nil when there is nothing to judge.
        package var met: Bool? {
            guard let value else { return nil }
            return switch measure {
            case .upload, .download, .connectionRate: value >= target
            case .roundTrip, .residentMemory: value <= target
            }
        }
    }

    /// Every target, in the order the report lists them.
    package static func verdicts(tunnel: PathComparison, memory: ProcessMemory?) -> [Verdict] {
        [
            Verdict(measure: .upload, value: tunnel.uploadRatio, target: throughputRatio),
            Verdict(measure: .download, value: tunnel.downloadRatio, target: throughputRatio),
            Verdict(measure: .roundTrip, value: tunnel.addedRoundTripMicroseconds, target: addedRoundTripMicroseconds),
            Verdict(measure: .connectionRate, value: tunnel.connectionRateRatio, target: connectionRateRatio),
            Verdict(measure: .residentMemory, value: memory.map { Double($0.residentBytes) }, target: Double(residentBytes)),
        ]
    }
}
