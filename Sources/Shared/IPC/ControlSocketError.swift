/// Why the control socket could not be served or reached.
package enum ControlSocketError: Error, Equatable, CustomStringConvertible {
    case pathTooLong(String)
    case failed(String, path: String, errno: Int32)
    /// Nothing listens: no tunnel runs on this data directory.
    case notRunning(String)
    case malformedResponse(String)

    package var description: String {
        switch self {
        case .pathTooLong(let path): "\(path) is too long for a socket name (107 bytes at most); choose a shorter --data-dir"
        case .failed(let call, let path, let code): "control socket \(path): \(call) failed: \(SystemError.text(code))"
        case .notRunning(let path): "no tunnel is running (nothing answers at \(path))"
        case .malformedResponse(let reason): "the tunnel's answer could not be read: \(reason)"
        }
    }
}
