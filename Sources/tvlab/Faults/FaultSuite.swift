#if canImport(Glibc)
import Glibc
#endif
import Bench
import Foundation
import Linux

/// `tvlab faults` (`scripts/faults`): the tunnel under the faults a demanding user meets — many
/// connections held and used again, signals and `timeout`, the tunnel killed mid-download, its
/// device deleted, a full disk, a hostile local client, damaged and planted files, garbage
/// datagrams and mutated captures — each checked against what was promised, the figures in one
/// report. `--short` is CI's form.
struct FaultsOptions: Equatable {
    var short = false
    var connections: Int?
    var mutations: Int?
    var json = false
    /// Only these scenarios (by the names the progress lines show), for working on one; empty: all.
    var only: [String] = []

    var connectionCount: Int { connections ?? (short ? 2_000 : 10_000) }
    var mutationCount: Int { mutations ?? (short ? 60 : 600) }
    var garbageCount: Int { short ? 2_000 : 20_000 }
    /// The download the disk-full and kill scenarios make: larger than the 8 MiB data directory.
    static let downloadBytes = 50 * 1_048_576
}

final class FaultSuite {
    let options: FaultsOptions
    let lab: FaultLab
    var report = FaultSuiteReport()

    init(options: FaultsOptions, lab: FaultLab) {
        self.options = options
        self.lab = lab
    }

    static func run(_ options: FaultsOptions) throws(Failure) {
        guard geteuid() == 0 else {
            throw Failure("faults must run as root: it builds network namespaces and runs tunnelvision run (sudo scripts/faults)")
        }
        Interruption.install()
        // Behind sudo, `tunnelvision run` would drop its command to the invoking user, who cannot
        // write into the suite's private directory.
        unsetenv("SUDO_UID")
        unsetenv("SUDO_GID")
        let chosen = try scenarios(named: options.only)
        let lab = try FaultLab(bigFileBytes: FaultsOptions.downloadBytes)
        defer { lab.close() }
        let suite = FaultSuite(options: options, lab: lab)
        // Only what the scenarios run measure is judged: `--only signals` holds no connection.
        suite.report.measured = chosen.reduce(into: []) { $0.formUnion($1.measures) }
        for scenario in chosen {
            try Interruption.check()
            Console.progress("faults: \(scenario.name)…")
            do { try scenario.run(suite) } catch {
                if Interruption.receivedSignal != nil { throw error }
                suite.record(scenario.name, false, "the scenario itself failed: \(error)")
            }
        }
        if options.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            guard let data = try? encoder.encode(suite.report) else { throw Failure("cannot encode the report") }
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(suite.report.text)
        }
        if !suite.report.passed { throw Failure("the fault suite failed; see the report above") }
    }

    /// One scenario: its name (what `--only` takes and the progress line shows), the figures it
    /// measures besides its faults, and how it runs.
    struct Scenario: Sendable {
        let name: String
        let measures: FaultSuiteReport.Figures
        let run: @Sendable (FaultSuite) throws(Failure) -> Void
    }

    static let all: [Scenario] = [
        Scenario(name: "connections", measures: .connections) { suite throws(Failure) in try suite.holdConnections() },
        Scenario(name: "signals", measures: []) { suite throws(Failure) in try suite.signals() },
        Scenario(name: "kill -9", measures: []) { suite throws(Failure) in try suite.killedMidDownload() },
        Scenario(name: "device deleted", measures: []) { suite throws(Failure) in try suite.deviceDeleted() },
        Scenario(name: "full disk", measures: []) { suite throws(Failure) in try suite.fullDisk() },
        Scenario(name: "hostile control clients", measures: []) { suite throws(Failure) in try suite.hostileControlClients() },
        Scenario(name: "damaged and planted files", measures: []) { suite throws(Failure) in try suite.damagedAndPlantedFiles() },
        Scenario(name: "garbage datagrams", measures: .badInputs) { suite throws(Failure) in try suite.garbageDatagrams() },
        Scenario(name: "mutated captures", measures: .badInputs) { suite throws(Failure) in try suite.mutatedCaptures() },
    ]

    /// The scenarios `names` picks, in the suite's order (none: all); a name that is none of
    /// them is refused before anything is built, with the names there are.
    static func scenarios(named names: [String]) throws(Failure) -> [Scenario] {
        if let unknown = names.first(where: { name in !all.contains { $0.name == name } }) {
            throw Failure("faults: no scenario is named \(unknown.debugDescription); --only takes "
                          + all.map(\.name).joined(separator: ", ") + " (comma-separated)")
        }
        return all.filter { names.isEmpty || names.contains($0.name) }
    }

    func record(_ name: String, _ survived: Bool, _ detail: String) {
        report.faults.append(.init(name: name, survived: survived, detail: detail))
        Console.progress("  \(survived ? "ok  " : "FAIL") \(name): \(detail)")
    }

    /// The text of a file the suite wrote (a program's output), or "".
    func text(_ path: String) -> String { FaultLab.readText(path) }

    /// A fresh data directory path (created by tunnelvision itself).
    func dataDirectory(_ name: String) -> String { lab.path("data-" + name) }
}
