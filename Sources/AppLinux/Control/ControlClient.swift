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
        let status = line.withUnsafeBytes { FileDescriptor.writeAll(descriptor, $0) }
        if let status { throw .failed("write", path: path, errno: status) }
        var received = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !received.contains(UInt8(ascii: "\n")) {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { throw .failed("read", path: path, errno: errno) }
            if count == 0 { break }
            received.append(contentsOf: chunk[..<count])
        }
        let message = received.prefix { $0 != UInt8(ascii: "\n") }
        do {
            return try ControlChannel.decodeResponse(Data(message))
        } catch {
            throw .malformedResponse(error.description)
        }
    }
}
