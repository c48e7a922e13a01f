import Posix
import Shared

/// What a relayed TCP leg asks of its socket, every answer a value (STYLE practice 9):
/// `TCPSocket` in the product, a scripted socket in tests.
package protocol RelayStreamSocket: AnyObject {
    var descriptor: Int32 { get }
    /// How the non-blocking connect ended (SO_ERROR), asked once the loop reports the socket.
    func finishConnect() -> ConnectResult
    /// Takes what fits in the socket buffer: `.processed(n)` may be less than `bytes.count`.
    func send(_ bytes: UnsafeRawBufferPointer) -> IOResult
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> ReceiveResult
    /// `shutdown(SHUT_WR)`.
    func shutdownWrite() throws(SocketError)
    func close()
    /// Closes with a reset (SO_LINGER 0): the peer reads ECONNRESET.
    func abort()
}

extension TCPSocket: RelayStreamSocket {}
