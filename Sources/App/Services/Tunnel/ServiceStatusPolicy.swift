import Shared

/// What a data directory's service files say, read as a status (pure): the lock says whether a
/// service lives, its record what it is doing — or, once the lock is free, what it was doing
/// when it ended.
package struct ServiceReport: Sendable, Equatable {
    package let status: TunnelStatus
    /// The service's own record, as written; nil when it wrote none (or removed it on a clean stop).
    package let record: ServiceRecord?
    /// What the person should know beyond the status: why the last start failed, or that the
    /// service ended without stopping.
    package let note: String?

    package init(lockHeld: Bool, record: ServiceRecord?) {
        self.record = record
        status = ServiceStatusPolicy.status(lockHeld: lockHeld, record: record)
        note = ServiceStatusPolicy.note(lockHeld: lockHeld, record: record)
    }

    /// The service's pid, while it lives.
    package var runningPID: Int32? { status == .disconnected ? nil : record?.pid }
}

package enum ServiceStatusPolicy {
    package static func status(lockHeld: Bool, record: ServiceRecord?) -> TunnelStatus {
        guard lockHeld else { return .disconnected }
        switch record?.phase {
        // The lock comes before the first record: a service that holds it is starting.
        case nil, .starting: return .connecting
        case .live: return .connected
        // A failed service that still holds the lock is on its way out.
        case .stopping, .failed: return .disconnecting
        }
    }

    package static func note(lockHeld: Bool, record: ServiceRecord?) -> String? {
        guard let record else { return nil }
        if record.phase == .failed {
            let problem = record.problem ?? "no reason was given"
            return lockHeld ? "stopping after a failure: \(problem)" : "the last service failed: \(problem)"
        }
        guard !lockHeld else { return nil }
        // The record outlived its service: it ended without the clean stop that removes it.
        return "the service (pid \(record.pid)) ended without stopping while \(record.phase.rawValue) (killed?); "
            + "its device, and the routes through it, went with it; the next up removes the rules it left"
    }
}
