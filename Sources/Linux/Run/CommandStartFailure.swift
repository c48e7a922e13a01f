#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision

/// Why the monitored command did not start. Each says what failed in the system's words, and
/// `exitStatus` is what a shell would exit with for it (127 not found, 126 not executable).
package enum CommandStartFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// SUDO_UID names no account in the user database: add it, or run without sudo's variables.
    case noAccount(uid: UInt32)
    /// The monitored namespace could not be opened (it vanished?): run again.
    case namespaceUnavailable(path: String, errno: Int32)
    /// Run's signal handlers or the init could not be made (out of processes or descriptors).
    case spawnFailed(what: String, errno: Int32)
    /// The init could not prepare CMD's namespaces and mounts, at `step`: nothing was half-run.
    case setUp(step: Step, errno: Int32)
    /// CMD's process could not become CMD, at `step` (`exec`: the program itself).
    case start(program: String, step: Step, errno: Int32)
    /// The init ended without saying how CMD ended (a bug of ours: report it).
    case initLost(waitStatus: Int32)

    /// A stage of the start, as the C side numbers it (CTVSpawn.h, CTV_STEP_*).
    package enum Step: Sendable, Equatable {
        case networkNamespace, mountNamespace, mountPropagation, sysfs, bindMount, proc, signalfd, fork,
             signalMask, groups, gid, uid, openFileLimit, exec

        /// The step a report names; nil for a number this build does not know.
        init?(reported: Int32) {
            let steps: [Int32: Step] = [
                Int32(CTV_STEP_NETWORK_NAMESPACE): .networkNamespace, Int32(CTV_STEP_MOUNT_NAMESPACE): .mountNamespace,
                Int32(CTV_STEP_MOUNT_PROPAGATION): .mountPropagation, Int32(CTV_STEP_SYSFS): .sysfs,
                Int32(CTV_STEP_BIND_MOUNT): .bindMount, Int32(CTV_STEP_PROC): .proc, Int32(CTV_STEP_SIGNALFD): .signalfd,
                Int32(CTV_STEP_FORK): .fork, Int32(CTV_STEP_SIGNAL_MASK): .signalMask, Int32(CTV_STEP_GROUPS): .groups,
                Int32(CTV_STEP_GID): .gid, Int32(CTV_STEP_UID): .uid, Int32(CTV_STEP_OPEN_FILE_LIMIT): .openFileLimit,
                Int32(CTV_STEP_EXEC): .exec,
            ]
            guard let step = steps[reported] else { return nil }
            self = step
        }

        var doing: String {
            switch self {
            case .networkNamespace: "entering the monitored network namespace"
            case .mountNamespace: "making a private mount namespace"
            case .mountPropagation: "making / a slave mount"
            case .sysfs: "mounting the namespace's /sys (as ip netns exec does)"
            case .bindMount: "bind-mounting /etc/netns/NAME/ over /etc/"
            case .proc: "mounting /proc for the command's PID namespace"
            case .signalfd: "watching signals for the command"
            case .fork: "starting the command's process"
            case .signalMask: "clearing the command's signal mask"
            case .groups: "setting the command's supplementary groups"
            case .gid: "setting the command's group id"
            case .uid: "setting the command's user id"
            case .openFileLimit: "giving back the usual descriptor limit"
            case .exec: "executing"
            }
        }
    }

    package var exitStatus: Int32 {
        guard case let .start(_, .exec, errno) = self else { return 1 }
        return errno == ENOENT ? 127 : 126
    }

    package var description: String {
        switch self {
        case let .noAccount(uid):
            "SUDO_UID=\(uid) names no account on this machine; unset SUDO_UID to run the command as root"
        case let .namespaceUnavailable(path, errno):
            "cannot open \(path): \(Self.reason(errno)); run again"
        case let .spawnFailed(what, errno):
            "cannot start the command (\(what)): \(Self.reason(errno))"
        case let .setUp(step, errno):
            "cannot prepare the command's namespace: \(step.doing) failed: \(Self.reason(errno))"
        case let .start(program, .exec, errno):
            "\(program): \(Self.reason(errno))"
        case let .start(program, step, errno):
            "cannot start \(program): \(step.doing) failed: \(Self.reason(errno))"
        case let .initLost(status):
            "the command's supervisor ended (wait status \(status)) without saying how the command ended"
        }
    }

    static func reason(_ errno: Int32) -> String { String(cString: strerror(errno)) }
}
