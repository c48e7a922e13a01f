import CTunnelVision
import Foundation
import Testing
@testable import Linux

/// The rules that give CMD each signal exactly once: what run relays, and what the init forwards.
@Suite struct SignalRelayTests {
    @Test("a process's signal is relayed (kill, sigqueue, tgkill); the kernel's — the terminal's Ctrl-C — never")
    func whatIsRelayed() {
        #expect(SignalRelay.relays(code: 0))      // SI_USER
        #expect(SignalRelay.relays(code: -1))     // SI_QUEUE
        #expect(SignalRelay.relays(code: -6))     // SI_TKILL
        #expect(!SignalRelay.relays(code: 0x80))  // SI_KERNEL
        #expect(SignalRelay.relayed == [SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM])
        #expect(!SignalRelay.relayed.contains(SIGTSTP) && !SignalRelay.relayed.contains(SIGCONT))
    }

    @Test("a signal the init saw from the group is consumed once by a relay request; an unseen one is forwarded")
    func ledger() {
        var ledger = GroupSignalLedger()
        #expect(ledger.relayRequested(SIGTERM) == .forward)
        ledger.received(SIGTERM, code: 0)
        ledger.received(SIGINT, code: 0x80)   // the terminal's: CMD had it, and run never relays it
        #expect(ledger.relayRequested(SIGINT) == .forward)
        #expect(ledger.relayRequested(SIGHUP) == .forward)
        #expect(ledger.relayRequested(SIGTERM) == .alreadyDelivered)
        #expect(ledger.relayRequested(SIGTERM) == .forward)
        ledger.received(SIGUSR1, code: 0)
        ledger.received(SIGUSR1, code: -1)
        #expect([ledger.relayRequested(SIGUSR1), ledger.relayRequested(SIGUSR1), ledger.relayRequested(SIGUSR1)]
                == [.alreadyDelivered, .alreadyDelivered, .forward])
    }

    @Test("the init's reports conclude: a failed start wins over its status 127; a killed init took CMD with its signal")
    func conclusion() {
        var started = CommandConclusion(program: "curl")
        started.record(kind: Int32(CTV_REPORT_ENDED), step: 0, value: 0x0300)
        #expect(started.result(initWaitStatus: 0) == .success(.exited(3)))

        var failed = CommandConclusion(program: "curl")
        failed.record(kind: Int32(CTV_REPORT_START_FAILED), step: Int32(CTV_STEP_EXEC), value: EACCES)
        failed.record(kind: Int32(CTV_REPORT_ENDED), step: 0, value: 127 << 8)
        #expect(failed.result(initWaitStatus: 0) == .failure(.start(program: "curl", step: .exec, errno: EACCES)))

        var unprepared = CommandConclusion(program: "curl")
        unprepared.record(kind: Int32(CTV_REPORT_SETUP_FAILED), step: Int32(CTV_STEP_SYSFS), value: EPERM)
        #expect(unprepared.result(initWaitStatus: 127 << 8) == .failure(.setUp(step: .sysfs, errno: EPERM)))
        #expect(CommandStartFailure.setUp(step: .sysfs, errno: EPERM).description
                == "cannot prepare the command's namespace: mounting the namespace's /sys (as ip netns exec does) failed: Operation not permitted")

        #expect(CommandConclusion(program: "curl").result(initWaitStatus: SIGKILL) == .success(.signalled(SIGKILL)))
        #expect(CommandConclusion(program: "curl").result(initWaitStatus: 1 << 8) == .failure(.initLost(waitStatus: 256)))
    }
}
