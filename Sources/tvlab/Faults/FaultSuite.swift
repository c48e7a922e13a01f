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
        let lab = try FaultLab(bigFileBytes: FaultsOptions.downloadBytes)
        defer { lab.close() }
        let suite = FaultSuite(options: options, lab: lab)
        let scenarios: [(String, (FaultSuite) throws(Failure) -> Void)] = [
            ("connections", { suite throws(Failure) in try suite.holdConnections() }),
            ("signals", { suite throws(Failure) in try suite.signals() }),
            ("kill -9", { suite throws(Failure) in try suite.killedMidDownload() }),
            ("device deleted", { suite throws(Failure) in try suite.deviceDeleted() }),
            ("full disk", { suite throws(Failure) in try suite.fullDisk() }),
            ("hostile control clients", { suite throws(Failure) in try suite.hostileControlClients() }),
            ("damaged and planted files", { suite throws(Failure) in try suite.damagedAndPlantedFiles() }),
            ("garbage datagrams", { suite throws(Failure) in try suite.garbageDatagrams() }),
            ("mutated captures", { suite throws(Failure) in try suite.mutatedCaptures() }),
        ]
        for (name, scenario) in scenarios where options.only.isEmpty || options.only.contains(name) {
            try Interruption.check()
            Console.progress("faults: \(name)…")
            do { try scenario(suite) } catch {
                if Interruption.receivedSignal != nil { throw error }
                suite.record(name, false, "the scenario itself failed: \(error)")
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

    func record(_ name: String, _ survived: Bool, _ detail: String) {
        report.faults.append(.init(name: name, survived: survived, detail: detail))
        Console.progress("  \(survived ? "ok  " : "FAIL") \(name): \(detail)")
    }

    /// The text of a file the suite wrote (a program's output), or "".
    func text(_ path: String) -> String { FaultLab.readText(path) }

    /// A fresh data directory path (created by tunnelvision itself).
    func dataDirectory(_ name: String) -> String { lab.path("data-" + name) }
}
