import Posix

/// What a batch write to a `PacketDevice` did: how many datagrams went, in order, and the answer
/// that refused the next one — so the caller counts what was lost under its cause and can tell a
/// full queue from a device that is gone.
package struct PacketWriteResult: Sendable, Equatable {
    package var written: Int
    /// `.wouldBlock` (the device's queue is full) or `.failed(errno)`; nil when every datagram went.
    package var refusal: IOResult?

    package init(written: Int, refusal: IOResult? = nil) {
        self.written = written
        self.refusal = refusal
    }
}
