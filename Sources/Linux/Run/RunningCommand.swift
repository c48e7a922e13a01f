#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision
import Foundation

/// The monitored command while it runs: started by our own spawn (CTVSpawn.h) under a small init
/// of ours, PID 1 of a fresh PID namespace, so nothing CMD starts outlives it or the tunnel. One
/// thread lives exactly as long as CMD: it makes the init (whose PDEATHSIG is tied to it), relays
/// the signals run receives, reads the init's reports, and reaps it.
///
/// `@unchecked Sendable`: `controlFD`, `result` and `waiting` are read and changed only under
/// `lock` (an `NSLock`); `initPID` is a `let`.
package final class RunningCommand: @unchecked Sendable {
    private let lock = NSLock()
    private let initPID: pid_t
    /// Our end of the init's control pipe (its lifeline); -1 once the init is reaped.
    private var controlFD: Int32
    private var result: Result<MonitoredCommand.Ending, CommandStartFailure>?
    private var waiting: [CheckedContinuation<Result<MonitoredCommand.Ending, CommandStartFailure>, Never>] = []

    private init(initPID: pid_t, controlFD: Int32) {
        self.initPID = initPID
        self.controlFD = controlFD
    }

    /// Starts `command` in `namespace` (nil: ours) with `environment` (before the account's
    /// HOME/USER/LOGNAME). `signalRecords` is the pipe of run's signal handlers
    /// (`installSignalRelay`), nil to relay nothing. `trustMounts` are bind-mounted inside CMD's
    /// own mount namespace only (`run --inspect`'s trust store).
    package static func start(_ command: MonitoredCommand, namespace: CommandNamespace?, environment: [String: String],
                              signalRecords: Int32? = nil,
                              trustMounts: [InspectionTrustPlan.Mount] = []) throws(CommandStartFailure) -> RunningCommand {
        guard let program = command.arguments.first else { throw .start(program: "", step: .exec, errno: ENOENT) }
        let environment = command.environment(from: environment)
        guard let path = MonitoredCommand.locate(program, environment: environment) else {
            throw .start(program: program, step: .exec, errno: ENOENT)
        }
        let namespaceFD = namespace.map { open($0.pinPath, O_RDONLY | O_CLOEXEC) } ?? -1
        if let namespace, namespaceFD < 0 { throw .namespaceUnavailable(path: namespace.pinPath, errno: errno) }
        let request = SpawnRequest(path: path, command: command, environment: environment, namespace: namespace,
                                   namespaceFD: namespaceFD, trustMounts: trustMounts)
        let started = StartHandOff()
        let thread = Thread {
            let spawned = request.spawn()
            if namespaceFD >= 0 { close(namespaceFD) }
            guard case let .success(ids) = spawned else {
                if case let .failure(error) = spawned { started.hand(.failure(error)) }
                return
            }
            let running = RunningCommand(initPID: ids.init_pid, controlFD: ids.control_fd)
            started.hand(.success(running))
            running.supervise(reportFD: ids.report_fd, signalRecords: signalRecords ?? -1, program: program)
        }
        thread.name = "monitored command"
        thread.start()
        return try started.take().get()
    }

    /// How CMD ended, once it has; or why it never started.
    package func ending() async throws(CommandStartFailure) -> MonitoredCommand.Ending {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<MonitoredCommand.Ending, CommandStartFailure>, Never>) in
            lock.lock()
            if let result = self.result {
                lock.unlock()
                continuation.resume(returning: result)
            } else {
                waiting.append(continuation)
                lock.unlock()
            }
        }
        return try result.get()
    }

    /// Stops CMD cleanly: SIGTERM through the init now, and when CMD has not ended after
    /// `grace`, SIGKILL to the init — its whole PID namespace, CMD and all it started, goes with it.
    package func terminate(grace: Duration) {
        guard request(-SIGTERM) else { return }
        let seconds = Double(grace.components.seconds) + Double(grace.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            lock.lock()
            defer { lock.unlock() }
            if controlFD >= 0 { kill(initPID, SIGKILL) }   // not yet reaped: the PID is still the init's
        }
    }

    /// Writes a request to the init; false when it is gone.
    private func request(_ signal: Int32) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard controlFD >= 0 else { return false }
        var value = signal
        return write(controlFD, &value, MemoryLayout<Int32>.size) == MemoryLayout<Int32>.size
    }

    /// The thread's life: relay, read reports until the init closes its end, reap, conclude.
    private func supervise(reportFD: Int32, signalRecords: Int32, program: String) {
        var conclusion = CommandConclusion(program: program)
        var report = ctv_report()
        var watched = [pollfd(fd: reportFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: signalRecords, events: Int16(POLLIN), revents: 0)]   // fd -1: not watched
        reading: while true {
            watched[0].revents = 0
            watched[1].revents = 0
            if poll(&watched, nfds_t(watched.count), -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            if watched[1].revents != 0 { relaySignals(from: signalRecords) }
            if watched[0].revents != 0 {
                let got = read(reportFD, &report, MemoryLayout<ctv_report>.size)
                if got == MemoryLayout<ctv_report>.size {
                    conclusion.record(kind: report.kind, step: report.step, value: report.value)
                } else if got == 0 || (got < 0 && errno != EINTR) {
                    break reading
                }
            }
        }
        close(reportFD)
        // Wait without reaping, then reap under the lock, so `terminate` never kills a reused PID.
        var info = siginfo_t()
        while waitid(P_PID, id_t(initPID), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        var status: Int32 = 0
        lock.lock()
        while waitpid(initPID, &status, 0) < 0 && errno == EINTR {}
        close(controlFD)
        controlFD = -1
        let result = conclusion.result(initWaitStatus: status)
        self.result = result
        let waiters = waiting
        waiting = []
        lock.unlock()
        waiters.forEach { $0.resume(returning: result) }
    }

    private func relaySignals(from records: Int32) {
        var record = ctv_signal_record()
        while read(records, &record, MemoryLayout<ctv_signal_record>.size) == MemoryLayout<ctv_signal_record>.size {
            if SignalRelay.relays(code: record.code) { _ = request(record.signal) }
        }
    }

    /// Installs run's handlers for `SignalRelay.relayed`; returns the pipe they write to.
    static func installSignalRelay() throws(CommandStartFailure) -> Int32 {
        let fd = SignalRelay.relayed.withUnsafeBufferPointer { ctv_signal_records_install($0.baseAddress, Int32($0.count)) }
        guard fd >= 0 else { throw .spawnFailed(what: "installing signal handlers", errno: -fd) }
        return fd
    }
}

/// The spawn thread's answer to `start`, handed across once.
///
/// `@unchecked Sendable`: `value` is written once, on the spawn thread, before `ready` (a
/// `DispatchSemaphore`) is signalled, and read only after `take` has waited on it.
private final class StartHandOff: @unchecked Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private var value: Result<RunningCommand, CommandStartFailure>?

    func hand(_ value: Result<RunningCommand, CommandStartFailure>) {
        self.value = value
        ready.signal()
    }

    func take() -> Result<RunningCommand, CommandStartFailure> {
        ready.wait()
        return value!
    }
}
