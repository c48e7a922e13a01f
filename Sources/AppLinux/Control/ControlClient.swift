#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Posix
import Shared

/// The control channel's command end: connects to the tunnel's socket, sends one command, reads
/// one response. Blocking, with a timeout: it runs in a command, not in the tunnel.
package enum ControlClient {
    package static func send(_ command: ControlCommand, to path: String,
                             timeout: Duration = .seconds(5)) throws(ControlSocketError) -> ControlResponse {
        guard let address = UnixSocketAddress(path: path) else { throw .pathTooLong(path) }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .failed("socket", path: path, errno: errno) }
        defer { close(descriptor) }
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard address.withSockaddr({ connect(descriptor, $0, $1) }) == 0 else {
            let failure = errno
            if failure == ENOENT || failure == ECONNREFUSED { throw .notRunning(path) }
            throw .failed("connect", path: path, errno: failure)
        }
        var line = ControlChannel.encode(command)
        line.append(UInt8(ascii: "\n"))
        // A tunnel that refuses the connection (too many at once) writes why and closes before
        // reading the command: the write then fails, and the reason is still there to read.
        let writeFailure = Self.sendAll(line, on: descriptor)
        if let writeFailure, writeFailure != EPIPE && writeFailure != ECONNRESET {
            throw .failed("write", path: path, errno: writeFailure)
        }
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !received.contains(UInt8(ascii: "\n")) {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw .failed("read", path: path, errno: errno) }
            if count == 0 { break }
            received.append(contentsOf: chunk[..<count])
        }
        if received.isEmpty, let writeFailure { throw .failed("write", path: path, errno: writeFailure) }
        let message = received.prefix { $0 != UInt8(ascii: "\n") }
        do {
            return try ControlChannel.decodeResponse(Data(message))
        } catch {
            throw .malformedResponse(error.description)
        }
    }

    /// Writes `bytes` whole; the errno that stopped it, if any. MSG_NOSIGNAL: a tunnel that closed
    /// the connection is an answer to read, not a SIGPIPE.
    private static func sendAll(_ bytes: Data, on descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let sent = Glibc.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0 && errno == EINTR { continue }
                if sent < 0 { return errno }
                offset += sent
            }
            return nil
        }
    }
}
