#if canImport(Glibc)
import Glibc
#endif
import Posix
import Shared

/// Why the web server could not start. Each says what the person can do.
package enum WebServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A socket call on the listening address failed.
    case listen(IPEndpoint, call: String, errno: Int32)
    /// The event loop could not be made (out of descriptors).
    case eventLoop(EventLoopError)
    /// The app's files are not where the build put them.
    case siteMissing(String)

    package var description: String {
        switch self {
        case .listen(let endpoint, let call, let failure):
            let what = String(cString: strerror(failure))
            return switch failure {
            case EADDRINUSE: "cannot listen on \(endpoint): the port is in use; choose another with --listen, or 0 for any free one"
            case EADDRNOTAVAIL: "cannot listen on \(endpoint): no interface of this machine has that address; choose one it has"
            case EACCES: "cannot listen on \(endpoint): ports below 1024 need root; choose a higher port"
            default: "cannot listen on \(endpoint) (\(call): \(what))"
            }
        case .eventLoop(let why):
            return "cannot start the web server's event loop: \(why)"
        case .siteMissing(let path):
            return "the web app's files are not in \(path); keep the TunnelVision_AppLinux.resources folder of the build "
                + "beside the binary"
        }
    }
}
