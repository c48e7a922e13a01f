#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared
import Synchronization

/// A service's presence in its data directory while it lives: the lock it holds (one service per
/// directory) and the record it keeps current — starting, live, stopping — which a clean stop
/// removes and a failure leaves saying why, for `status` and the Dashboard to show.
package final class ServicePresence: Sendable {
    package let dataDirectory: URL
    private let lock: ServiceLock
    private let record: Mutex<ServiceRecord>

    /// Claims the directory for a service of `target`; nil when another service holds it (read
    /// its record to say which).
    package init?(dataDirectory: URL, target: MonitoringTarget, inspect: Bool) throws(ServiceLock.Failure) {
        guard let lock = try ServiceLock.acquire(in: dataDirectory) else { return nil }
        self.dataDirectory = dataDirectory
        self.lock = lock
        record = Mutex(ServiceRecord(pid: getpid(), target: target, inspect: inspect, phase: .starting, startedAt: Date()))
        write()
    }

    package func live(device: String) { update { $0.phase = .live; $0.device = device } }

    package func stopping() { update { $0.phase = .stopping } }

    /// The target's network changed under the service, and the service followed it or not.
    package func networkChanged(learnt: Bool, sentence: String) {
        update { record in
            record.networkChanges = (record.networkChanges ?? 0) + 1
            record.networkChangesLearned = (record.networkChangesLearned ?? 0) + (learnt ? 1 : 0)
            record.lastNetworkChange = sentence
        }
    }

    /// The end: a clean stop removes the record; a failure keeps it, saying why. Then the lock goes.
    package func end(problem: String?) {
        if let problem {
            update { $0.phase = .failed; $0.problem = problem }
        } else {
            ServiceRecordFile.remove(in: dataDirectory)
        }
        lock.release()
    }

    private func update(_ change: (inout ServiceRecord) -> Void) {
        record.withLock { change(&$0) }
        write()
    }

    /// A record that cannot be written is said on stderr and the service goes on: monitoring
    /// matters more than its announcement, and `status` still has the lock to go by.
    private func write() {
        let current = record.withLock { $0 }
        do { try ServiceRecordFile.write(current, in: dataDirectory) } catch {
            FileDescriptor.writeAll(STDERR_FILENO, text: "tunnelvision: cannot write the service record: \(error)\n")
        }
    }
}
