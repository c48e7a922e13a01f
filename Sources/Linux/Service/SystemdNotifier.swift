#if canImport(Glibc)
import Glibc
#endif
import Posix
import Shared

/// systemd's readiness protocol (sd_notify(3)), for the unit that runs `up --foreground` as
/// `Type=notify`: one datagram to $NOTIFY_SOCKET says READY=1 once traffic goes through the
/// tunnel, STOPPING=1 when told to stop, and STATUS= a sentence `systemctl status` shows. No
/// NOTIFY_SOCKET (not under systemd): nothing is sent. A datagram that cannot be sent is said
/// on stderr and the service goes on: readiness is systemd's concern, monitoring ours.
package struct SystemdNotifier: Sendable {
    package static let environmentVariable = "NOTIFY_SOCKET"
    let socket: String?

    package init(environment: [String: String]) {
        socket = environment[Self.environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    package func ready(status: String) { send("READY=1\nSTATUS=\(status)") }

    package func stopping() { send("STOPPING=1\nSTATUS=stopping: taking the routes away") }

    private func send(_ message: String) {
        guard let socket else { return }
        guard let address = UnixSocketAddress(notifySocket: socket) else {
            FileDescriptor.writeAll(STDERR_FILENO, text: "tunnelvision: \(Self.environmentVariable) is not a socket address: \(socket)\n")
            return
        }
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return report(errno) }
        defer { close(descriptor) }
        let bytes = Array(message.utf8)
        let sent = address.withSockaddr { pointer, length in
            bytes.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), pointer, length) }
        }
        if sent < 0 { report(errno) }
    }

    private func report(_ code: Int32) {
        FileDescriptor.writeAll(STDERR_FILENO, text: "tunnelvision: cannot tell systemd (\(socket ?? "")): \(SystemError.text(code))\n")
    }
}
