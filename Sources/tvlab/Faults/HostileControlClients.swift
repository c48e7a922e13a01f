#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Posix
import Shared

/// Local clients that attack a tunnel's control socket the cheap ways: many connections each
/// sending a long line with no newline, and connections that send a command and never read its
/// answer. They hold their sockets until `close`.
final class HostileControlClients {
    /// Each flooding client's bytes: the size the probe found stalled the loop for seconds.
    static let floodBytes = 60 * 1024
    static let connectTimeoutSeconds = 1
    /// A server that accepts one client a second would hold the attack's set-up for half an hour:
    /// after this long, the attack goes on with the clients it has.
    static let setUpLimitSeconds = 30.0
    private(set) var descriptors: [Int32] = []
    private(set) var connected = 0
    private(set) var bytesSent = 0

    /// `flooders` connections sending `floodBytes` without a newline, and `silent` connections
    /// sending a stats command and never reading.
    init(path: String, flooders: Int, silent: Int) throws(Failure) {
        guard let address = UnixSocketAddress(path: path) else { throw Failure("control socket path too long: \(path)") }
        let flood = [UInt8](repeating: UInt8(ascii: "x"), count: Self.floodBytes)
        let command = Array(ControlChannel.encode(ControlCommand.stats)) + [UInt8(ascii: "\n")]
        let started = Stopwatch()
        for index in 0..<(flooders + silent) where started.elapsedSeconds < Self.setUpLimitSeconds {
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
            guard descriptor >= 0 else { throw Failure("hostile client: socket", errno: errno) }
            descriptors.append(descriptor)
            // Blocking, so a full backlog makes the client wait for the server's accept as a
            // patient attacker would — bounded, so a server that stops accepting ends the attack.
            var timeout = timeval(tv_sec: Self.connectTimeoutSeconds, tv_usec: 0)
            _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let result = address.withSockaddr { connect(descriptor, $0, $1) }
            guard result == 0 else { continue }
            connected += 1
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            let bytes = index < flooders ? flood : command
            let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent > 0 { bytesSent += sent }
        }
    }

    func close() {
        descriptors.forEach { _ = Glibc.close($0) }
        descriptors.removeAll()
    }

    deinit { close() }
}
