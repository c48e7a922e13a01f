#if canImport(Glibc)
import Glibc
#endif
import App
import Foundation
import Shared
import Synchronization

/// The Linux conformer of `TunnelProviderManaging` (seeds/000 § Tunnel control, The injected
/// shell): where iOS asks NETunnelProviderManager, it starts `tunnelvision up` as a service of
/// its own on one data directory, stops it with SIGTERM, and reads its state from the directory
/// (`ServiceLock`, `ServiceRecord`). It decides nothing: what a state means is `ServiceStatusPolicy`'s
/// and `TunnelStatePolicy`'s.
package final class LinuxServiceManager: TunnelProviderManaging {
    package let dataDirectory: URL
    /// The tunnelvision binary the service runs as.
    package let executable: String
    package let startDeadline: Duration
    let stopDeadline: Duration
    private let installed = Mutex<TunnelConfiguration?>(nil)

    package init(dataDirectory: URL, executable: String = LinuxServiceManager.currentExecutable(),
                 startDeadline: Duration = .seconds(60), stopDeadline: Duration = .seconds(30)) {
        self.dataDirectory = dataDirectory
        self.executable = executable
        self.startDeadline = startDeadline
        self.stopDeadline = stopDeadline
    }

    /// This process's own binary, as the kernel knows it (a path that stays right if the file is
    /// replaced by an upgrade only as long as the old one runs — which is what the service needs).
    static func currentExecutable() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// The directory's service files, read as a report.
    package func report() throws(TunnelControlError) -> ServiceReport {
        do {
            let held = try ServiceLock.isHeld(in: dataDirectory)
            return ServiceReport(lockHeld: held, record: try ServiceRecordFile.read(in: dataDirectory))
        } catch let error as ServiceLock.Failure {
            throw TunnelControlError.classifying(errno: error.errno, message: error.description, during: .control)
        } catch let error as ServiceRecordError {
            if error.isPermissionDenied { throw .permissionDenied }
            throw .controlChannelFailed(error.description)
        } catch {
            throw .controlChannelFailed("\(error)")
        }
    }

    package func loadStatus() async throws(TunnelControlError) -> TunnelStatus {
        let status = try report().status
        // Nothing chosen and nothing running: the first Start sets up before it starts.
        if status == .disconnected && installed.withLock({ $0 }) == nil { return .notInstalled }
        return status
    }

    /// Checks the rights the service will need (root: it makes devices, rules and namespaces'
    /// sockets) and keeps the configuration the next `start` runs.
    package func install(_ configuration: TunnelConfiguration) async throws(TunnelControlError) {
        guard geteuid() == 0 else { throw .permissionDenied }
        try configuration.validate()
        installed.withLock { $0 = configuration }
    }

    package func start() async throws(TunnelControlError) {
        guard let configuration = installed.withLock({ $0 }) else { throw .notInstalled }
        let arguments = ServiceCommandLine.serviceArguments(for: configuration, dataDirectory: dataDirectory)
        let launcher: ServiceLauncher
        do { launcher = try ServiceLauncher(executable: executable, arguments: arguments) } catch {
            throw TunnelControlError.classifying(errno: error.errno, message: error.description, during: .start)
        }
        let deadline = startDeadline
        let (said, letGo) = await Self.offThread { launcher.output(within: deadline) }
        guard letGo else {
            kill(launcher.pid, SIGTERM)
            throw .startFailed("the service (pid \(launcher.pid)) was not live within \(deadline) and was told to stop"
                               + (said.isEmpty ? "" : "; it said: \(said)"))
        }
        // It let go of the pipe: live (its record says so) or ended (it is reaped).
        let settle = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < settle {
            if let status = launcher.exitStatus { throw .startFailed(ServiceStartFailure.reason(said: said, waitStatus: status)) }
            let report = try report()
            if report.status == .connected && report.record?.pid == launcher.pid { return }
            try? await Task.sleep(for: .milliseconds(5))
        }
        throw .startFailed("the service (pid \(launcher.pid)) stopped talking without saying it is live")
    }

    /// SIGTERM to the service that holds the lock, then waits until it has let go (its rules removed).
    package func stop() async throws(TunnelControlError) {
        let report = try report()
        guard let pid = report.runningPID else { throw .notRunning }
        guard kill(pid, SIGTERM) == 0 else {
            let failure = errno
            if failure == ESRCH { throw .notRunning }
            throw TunnelControlError.classifying(errno: failure, message: "kill \(pid): \(String(cString: strerror(failure)))",
                                                 during: .stop)
        }
        let deadline = ContinuousClock.now + stopDeadline
        while ContinuousClock.now < deadline {
            if try self.report().status == .disconnected { return }
            try? await Task.sleep(for: .milliseconds(10))
        }
        throw .controlChannelFailed("the service (pid \(pid)) was told to stop and still runs after \(stopDeadline)")
    }

    package func sendControl(_ payload: Data) async throws(TunnelControlError) -> Data? {
        let command: ControlCommand
        do { command = try ControlChannel.decodeCommand(payload) } catch { throw .controlChannelFailed(error.description) }
        let channel = TunnelControlChannel(dataDirectory: dataDirectory)
        let answer: Result<ControlResponse, TunnelControlChannel.Failure> = await Self.offThread {
            do throws(TunnelControlChannel.Failure) { return .success(try channel.send(command)) } catch { return .failure(error) }
        }
        switch answer {
        case .success(let response): return ControlChannel.encode(response)
        case .failure(let failure) where failure.isNotRunning: return nil
        case .failure(.control(.failed(_, _, let code))):
            throw TunnelControlError.classifying(errno: code, message: answer.failureText, during: .control)
        case .failure(.control(.malformedResponse)): throw .malformedResponse
        case .failure(let failure): throw .controlChannelFailed(failure.description)
        }
    }

    /// The status each time it changes, read from the directory five times a second.
    package func statusUpdates() -> AsyncStream<TunnelStatus> {
        AsyncStream { continuation in
            let watcher = Task {
                var last: TunnelStatus?
                while !Task.isCancelled {
                    if let status = try? await loadStatus(), status != last {
                        continuation.yield(status)
                        last = status
                    }
                    try? await Task.sleep(for: .milliseconds(200))
                }
            }
            continuation.onTermination = { _ in watcher.cancel() }
        }
    }

    /// Runs blocking work on a thread of its own, not the cooperative pool's.
    private static func offThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }
}

private extension Result where Failure == TunnelControlChannel.Failure {
    var failureText: String {
        if case .failure(let failure) = self { return failure.description }
        return ""
    }
}
