/// What `scripts/faults` (`tvlab faults`) found: the connections it held and used again, each
/// fault it injected and whether the tunnel came through it as promised, the bad inputs it fed
/// and how many crashed a reader, and the bytes a transfer lost. Pure: the command fills it in,
/// the tests read it, and `passed` is the suite's one verdict.
package struct FaultSuiteReport: Sendable, Equatable {
    /// One injected fault and what was checked after it.
    package struct Fault: Sendable, Equatable {
        package let name: String
        package let survived: Bool
        /// What was seen: the figure or the reason it failed.
        package let detail: String

        package init(name: String, survived: Bool, detail: String) {
            self.name = name
            self.survived = survived
            self.detail = detail
        }
    }

    /// Concurrent connections opened through one tunnel and proven by a round trip each.
    package var connectionsHeld = 0
    /// Of those, the ones that answered again after the pause, all held at once.
    package var connectionsWorkingAfter = 0
    /// The tunnel's peak resident memory while holding them, bytes; nil when not read.
    package var peakResidentBytes: UInt64?
    package var faults: [Fault] = []
    /// Malformed inputs fed to a reader (mutated captures to `analyze`, garbage datagrams into the
    /// tunnel) and how many of them crashed it (ended it by a signal).
    package var badInputsTried = 0
    package var badInputsCrashed = 0
    /// Bytes a transfer that should have completed did not deliver intact (missing or different).
    package var bytesLost: UInt64 = 0
    /// The figures the scenarios run were meant to produce: all of them, unless only some
    /// scenarios ran (`tvlab faults --only`); a figure no scenario measured neither passes nor fails.
    package var measured: Figures = .all

    /// The figures besides the faults, each produced by its own scenarios.
    package struct Figures: OptionSet, Sendable, Equatable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }

        /// `connectionsHeld` and `connectionsWorkingAfter`.
        package static let connections = Figures(rawValue: 1 << 0)
        /// `badInputsTried` and `badInputsCrashed`.
        package static let badInputs = Figures(rawValue: 1 << 1)
        package static let all: Figures = [.connections, .badInputs]
    }

    package init() {}

    package var faultsSurvived: Int { faults.filter(\.survived).count }

    /// Every held connection worked again, every fault was survived, no input crashed a reader
    /// and no byte was lost. A suite that injected nothing, or held nothing or tried no bad input
    /// where those were measured, did not pass.
    package var passed: Bool {
        let connectionsHeld = !measured.contains(.connections)
            || (connectionsHeld > 0 && connectionsWorkingAfter == connectionsHeld)
        let badInputsSurvived = !measured.contains(.badInputs) || (badInputsTried > 0 && badInputsCrashed == 0)
        return connectionsHeld && badInputsSurvived && !faults.isEmpty && faultsSurvived == faults.count && bytesLost == 0
    }

    /// The figures, a line each, then one line per fault.
    package var text: String {
        var lines = [
            measured.contains(.connections)
                ? "connections held: \(connectionsHeld), working afterwards: \(connectionsWorkingAfter)"
                    + (peakResidentBytes.map { ", tunnel peak memory \(Self.mebibytes($0))" } ?? "")
                : "connections held: not measured (no scenario run holds connections)",
            "faults injected: \(faults.count), survived: \(faultsSurvived)",
            measured.contains(.badInputs)
                ? "bad inputs tried: \(badInputsTried), crashed a reader: \(badInputsCrashed)"
                : "bad inputs: not measured (no scenario run feeds them)",
            "bytes lost: \(bytesLost)",
        ]
        for fault in faults {
            lines.append("  \(fault.survived ? "ok  " : "FAIL") \(fault.name): \(fault.detail)")
        }
        lines.append(passed ? "fault suite: passed" : "fault suite: FAILED")
        return lines.joined(separator: "\n")
    }

    package static func mebibytes(_ bytes: UInt64) -> String {
        let tenths = (Double(bytes) / 1_048_576 * 10).rounded() / 10
        return "\(tenths) MiB"
    }
}

/// `tvlab faults --json`: the figures, the verdict and every fault, under stable names; a figure
/// no scenario run measured is left out.
extension FaultSuiteReport: Encodable {
    private enum CodingKeys: String, CodingKey {
        case connectionsHeld, connectionsWorkingAfter, peakResidentBytes, faultsInjected, faultsSurvived, faults
        case badInputsTried, badInputsCrashed, bytesLost, passed
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if measured.contains(.connections) {
            try container.encode(connectionsHeld, forKey: .connectionsHeld)
            try container.encode(connectionsWorkingAfter, forKey: .connectionsWorkingAfter)
        }
        try container.encodeIfPresent(peakResidentBytes, forKey: .peakResidentBytes)
        try container.encode(faults.count, forKey: .faultsInjected)
        try container.encode(faultsSurvived, forKey: .faultsSurvived)
        try container.encode(faults, forKey: .faults)
        if measured.contains(.badInputs) {
            try container.encode(badInputsTried, forKey: .badInputsTried)
            try container.encode(badInputsCrashed, forKey: .badInputsCrashed)
        }
        try container.encode(bytesLost, forKey: .bytesLost)
        try container.encode(passed, forKey: .passed)
    }
}

extension FaultSuiteReport.Fault: Encodable {}
