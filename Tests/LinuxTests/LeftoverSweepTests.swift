import Foundation
import Testing
@testable import Linux
import Shared

/// The sweep's plan, from what exists and who lives, with the exact notice.
@Suite struct LeftoverSweepTests {
    let socket = "/var/lib/tunnelvision/control.sock"

    func findings(_ namespaces: [String], _ folders: [String] = [], socket state: LeftoverSweep.ControlSocket = .absent,
                  staleFiles: [String] = []) -> LeftoverSweep.Findings {
        .init(namespaces: namespaces, resolvConfDirectories: folders, controlSocketPath: socket, controlSocket: state,
              staleFiles: staleFiles)
    }

    @Test("a dead run's namespace, its /etc/netns folder and an unanswered socket are swept, in one line")
    func aDeadRunIsSweptWithOneNotice() {
        let plan = LeftoverSweep.plan(findings(["tvrun-123-1", "tvrun-77-2", "other", "tvrun-x-1"],
                                               ["tvrun-123-1", "tvrun-55-4", "tvlab-123-1", "tvrun-77-2"],
                                               socket: .unanswered),
                                      prefix: "tvrun", isAlive: { $0 == 77 })
        #expect(plan.leftovers == [.namespace("tvrun-123-1"), .resolvConfDirectory("/etc/netns/tvrun-123-1"),
                                   .resolvConfDirectory("/etc/netns/tvrun-55-4"), .controlSocket(socket)])
        #expect(plan.refusal == nil)
        #expect(LeftoverSweep.notice(removed: plan.leftovers, failed: [])
                == "recovered from an unclean stop: removed namespace tvrun-123-1, /etc/netns/tvrun-123-1, /etc/netns/tvrun-55-4, a stale control socket")
    }

    @Test("a live run's namespace and an answering socket are kept, and nothing to sweep says nothing")
    func aLiveRunIsKept() {
        let plan = LeftoverSweep.plan(findings(["tvrun-77-1"], ["tvrun-77-1"], socket: .answering),
                                      prefix: "tvrun", isAlive: { _ in true })
        #expect(plan.leftovers.isEmpty)
        #expect(LeftoverSweep.notice(removed: [], failed: []) == nil)
        #expect(LeftoverSweep.plan(findings([], socket: .other), prefix: "tvrun", isAlive: { _ in false }).leftovers.isEmpty)
    }

    @Test("the ring's stale files come in through the hook and are named; a failure is said, not hidden")
    func staleFilesAndFailures() {
        let ring = "/var/lib/tunnelvision/live-feed.ring.new-99"
        let plan = LeftoverSweep.plan(findings([], staleFiles: [ring]), prefix: "tvrun", isAlive: { _ in false })
        #expect(plan.leftovers == [.staleFile(ring)])
        #expect(LeftoverSweep.notice(removed: [.staleFile(ring)], failed: [(.namespace("tvrun-1-1"), "ip said no")])
                == "recovered from an unclean stop: removed \(ring); could not remove namespace tvrun-1-1 (ip said no)")
    }

    @Test("a symbolic link at the control socket's path refuses the run")
    func aLinkAtTheSocketRefuses() {
        let plan = LeftoverSweep.plan(findings([], socket: .symbolicLink), prefix: "tvrun", isAlive: { _ in false })
        #expect(plan.refusal?.description == "\(socket): it is a symbolic link; refusing to follow it (remove it)")
    }
}
