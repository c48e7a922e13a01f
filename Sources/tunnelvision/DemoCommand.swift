import App
import Foundation
import Linux
import Shared

/// `tunnelvision demo`: the tunnel in a lab of namespaces, needing nothing outside the machine
/// (`DemoScenario` builds, runs and removes it). Progress goes to standard error as it happens;
/// the summary, as `run` prints it, to standard output.
enum DemoCommand {
    static func run(dataDirectory override: String?, json: Bool) async -> Int32 {
        let outcome: DemoScenario.Outcome
        do {
            outcome = try await DemoScenario(dataDirectory: override).run { step(text(for: $0)) }
        } catch {
            if case .setUp = error { printError("tunnelvision: demo: \(error)") } else { printError("tunnelvision: \(error)") }
            return error.exitStatus
        }
        let summary = await RunSummary.of(command: "tunnelvision demo", exitStatus: outcome.clientsStatus, signal: nil,
                                          recording: outcome.recording)
        print(json ? summary.json() : summary.text())
        if outcome.interrupted {
            step("interrupted")
        } else if let override {
            step("the record is kept: tunnelvision flows --data-dir \(TimelineListing.quoted(override)) (then tunnelvision flow ID --data-dir …)")
        } else {
            step("(the demo's data directory is removed with the lab; pass --data-dir to keep it)")
        }
        return outcome.exitStatus
    }

    private static func step(_ text: String) { printError("demo: \(text)") }

    static func text(for step: DemoScenario.Step) -> String {
        switch step {
        case .buildingLab: "building the lab (namespaces host, server and monitored; \(Lab.hostIPv4) ↔ \(Lab.serverIPv4))…"
        case let .startingTunnel(dataDirectory): "starting the tunnel (data in \(dataDirectory))…"
        case let .client(client):
            switch client {
            case let .lookup(name): "looking up \(name) through the namespace's resolver…"
            case let .https(name, version): "fetching https://\(name)/ at TLS \(version) (a demo CA's chain)…"
            case let .quic(name): "a QUIC exchange with \(name)…"
            case let .download(name, bytes): "downloading \(bytes >> 20) MiB from http://\(name)…"
            case let .parallelRequests(name, count): "\(count) requests in parallel to \(name)…"
            case .udpExchange: "a UDP exchange…"
            }
        case let .clientFinished(ok): ok ? "  ok" : "  FAILED"
        case .labRemoved: "lab removed"
        }
    }
}
