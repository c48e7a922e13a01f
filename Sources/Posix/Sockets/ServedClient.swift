#if canImport(Glibc)
import Glibc
#endif

/// The calls a loop-served server (the web app's, the control socket's) makes on an accepted
/// client's descriptor, each the same for both: a read into the server's one scratch buffer, a
/// send that never raises SIGPIPE, and the close that stops watching it first.
package enum ServedClient {
    /// Up to `limit` bytes into `scratch` (one read; interruptions retried).
    package static func read(_ client: Int32, into scratch: inout [UInt8], limit: Int) -> IOResult {
        scratch.withUnsafeMutableBytes { buffer in
            IOResult.retryingInterrupts { Glibc.read(client, buffer.baseAddress, min(limit, buffer.count)) }
        }
    }

    /// MSG_NOSIGNAL: a peer that hung up (a browser tab closed, a `stats` client killed) must not
    /// take the server's process down with SIGPIPE.
    package static func send(_ bytes: ArraySlice<UInt8>, to client: Int32) -> IOResult {
        bytes.withUnsafeBytes { buffer in
            IOResult.retryingInterrupts { Glibc.send(client, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    /// Stops watching `client`, then closes it: the loop never reports a descriptor number that
    /// may already be another connection's.
    package static func close(_ client: Int32, on loop: EventLoop) {
        try? loop.unregister(client)
        Glibc.close(client)
    }
}
