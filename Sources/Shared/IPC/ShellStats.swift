/// What the tunnel's shell — the TUN device and the relay's sockets — could not do, so no drop
/// goes silent. Each part has one owner on the loop thread: the runtime counts the device's, the
/// relay's socket connector the sockets'. Errors are keyed by the errno's name ("ECONNREFUSED",
/// `SystemError.name`), which reads the same on every machine; a key appears once it happened.
package struct ShellStats: Codable, Sendable, Equatable {
    /// What the TUN device refused.
    package var device: Device
    /// What the relay's outbound sockets refused.
    package var sockets: Sockets

    package init(device: Device = Device(), sockets: Sockets = Sockets()) {
        self.device = device
        self.sockets = sockets
    }

    /// Nothing dropped yet.
    package static let zero = ShellStats()

    /// The device's failed calls, and what the kernel counted on it. A read that fails loses
    /// nothing (the datagram stays queued, or the device is gone); a write that fails loses the
    /// datagram, as on a wire; a datagram the kernel could not queue for us is lost before we read.
    package struct Device: Codable, Sendable, Equatable {
        /// Reads that failed, by errno (EAGAIN, "nothing waits", is not one).
        package var readFailures: [String: UInt64]
        /// Datagrams the device did not take, by errno: "EAGAIN" is its queue full (the monitored
        /// side reads too slowly), anything else an error.
        package var writeDrops: [String: UInt64]

        /// What the kernel counted on the device, read when the stats were asked; nil when it
        /// could not be read (`kernelProblem` says why) or the device is not the kernel's (a test's).
        package var kernel: DeviceKernelCounters?
        /// Why `kernel` could not be read, as the person should read it.
        package var kernelProblem: String?
        /// A watched interface's frames of other protocols than IP (ARP…), skipped; nil for a TUN.
        package var framesNotIP: UInt64?
        /// A watched interface's packets cut because they did not fit the capture ring's block
        /// (recorded with their length on the wire); nil for a TUN.
        package var framesCut: UInt64?

        package init(readFailures: [String: UInt64] = [:], writeDrops: [String: UInt64] = [:],
                    kernel: DeviceKernelCounters? = nil, kernelProblem: String? = nil) {
            self.readFailures = readFailures
            self.writeDrops = writeDrops
            self.kernel = kernel
            self.kernelProblem = kernelProblem
        }

        package var readFailureCount: UInt64 { readFailures.values.reduce(0, +) }
        package var writeDropCount: UInt64 { writeDrops.values.reduce(0, +) }
    }

    /// The relay sockets' failed calls, by the call. A failed connect is the remote's answer
    /// (refused, unreachable) as much as a fault: the monitored client hears it as a reset or an
    /// ICMP error; `connectFailuresByErrno` says which.
    package struct Sockets: Codable, Sendable, Equatable {
        /// socket(2) or its options refused: no socket was made (often the descriptor limit).
        package var socketFailures: UInt64
        /// TCP and UDP connects that failed.
        package var connectFailures: UInt64
        /// TCP sends that failed (the leg is closed, its flow reset).
        package var sendFailures: UInt64
        /// Receives that failed (a reset, an ICMP error for an earlier UDP datagram).
        package var receiveFailures: UInt64
        /// shutdown(SHUT_WR) refused (the peer already gone).
        package var shutdownFailures: UInt64
        /// Descriptors the event loop refused to watch (the leg is closed).
        package var watchFailures: UInt64
        /// UDP datagrams the socket did not take (its buffer full, or an error): lost.
        package var udpSendsLost: UInt64
        /// `connectFailures`, by errno.
        package var connectFailuresByErrno: [String: UInt64]

        package init(socketFailures: UInt64 = 0, connectFailures: UInt64 = 0, sendFailures: UInt64 = 0,
                    receiveFailures: UInt64 = 0, shutdownFailures: UInt64 = 0, watchFailures: UInt64 = 0,
                    udpSendsLost: UInt64 = 0, connectFailuresByErrno: [String: UInt64] = [:]) {
            self.socketFailures = socketFailures
            self.connectFailures = connectFailures
            self.sendFailures = sendFailures
            self.receiveFailures = receiveFailures
            self.shutdownFailures = shutdownFailures
            self.watchFailures = watchFailures
            self.udpSendsLost = udpSendsLost
            self.connectFailuresByErrno = connectFailuresByErrno
        }
    }
}
