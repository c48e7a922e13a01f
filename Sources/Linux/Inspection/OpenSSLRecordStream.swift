import COpenSSL
import Foundation
import PacketTunnel

/// The transport of one inspected session's `SSL`, in memory: a BIO of our own over the peer's
/// records (in) and ours (out). Each byte is copied once each way — the peer's from the relay's
/// chunk straight into OpenSSL's record buffer, ours from OpenSSL's straight into the `Data` the
/// relay is handed — where a pair of `BIO_s_mem` copied each byte in, out and again into `Data`,
/// and zero-filled and reallocated their buffers as they grew. For the `SSL` it behaves as
/// `BIO_s_mem` does: reading it empty asks to retry (`SSL_ERROR_WANT_READ`), a write is always
/// taken whole, nothing is buffered on OpenSSL's side of it.
///
/// One BIO serves as both the read and the write BIO (as a socket BIO would); the `SSL` owns it
/// and frees it, and it points back here unretained: the session keeps this object for as long
/// as its `SSL` lives.
final class OpenSSLRecordStream {
    let bio: OpaquePointer
    /// The peer's records given and not yet read by OpenSSL, in the chunks they came in, the
    /// first read up to `consumed`. Kept as chunks: a chunk rarely ends on a record's edge, and
    /// joining the cut record's start to the next chunk copied every byte of that chunk again.
    private var input: [Data] = []
    private var consumed = 0
    /// Our records, written by OpenSSL and not yet taken.
    private var output = Data()

    /// Bytes of the peer's records OpenSSL has not read yet.
    private(set) var unreadCount = 0

    init() throws(TLSSessionFailure) {
        guard let method = Self.method.pointer, let bio = BIO_new(method) else {
            throw TLSSessionFailure("OpenSSL could not make the session's BIO: " + OpenSSLErrorQueue.drain(fallback: "out of memory?"))
        }
        self.bio = bio
        BIO_set_data(bio, Unmanaged.passUnretained(self).toOpaque())
        BIO_set_init(bio, 1)
    }

    /// The peer's records, read after whatever is still unread. They may be lent for the call
    /// (the device's read buffer, `Relay.passthrough`): `releaseInput` ends it.
    func feed(_ records: Data) {
        guard !records.isEmpty else { return }
        input.append(records)
        unreadCount += records.count
    }

    /// After OpenSSL has read what it wanted of what was fed: forgets what it did not read when
    /// the session will not read again, and otherwise keeps it — copied, since what was fed may
    /// have been lent. That is a record cut by the end of a segment, so a few KiB at most.
    func releaseInput(discardingUnread: Bool) {
        if !discardingUnread && unreadCount > 0 {
            var kept: [Data] = []
            for (index, chunk) in input.enumerated() {
                let start = chunk.startIndex + (index == 0 ? consumed : 0)
                kept.append(chunk[start...].withUnsafeBytes { Data($0) })
            }
            input = kept
            consumed = 0
            return
        }
        input.removeAll(keepingCapacity: true)
        consumed = 0
        unreadCount = 0
    }

    /// Room for `count` more bytes of our records, so a large write is not grown piece by piece.
    func reserveOutput(_ count: Int) {
        if output.isEmpty { output = Data(capacity: count) } else { output.reserveCapacity(output.count + count) }
    }

    /// Our records written so far, handed over whole.
    func takeOutput() -> Data {
        let taken = output
        output = Data()
        return taken
    }

    // MARK: The BIO's side

    private func read(into buffer: UnsafeMutablePointer<CChar>, _ length: Int) -> Int {
        var copied = 0
        while copied < length, let first = input.first {
            let count = min(first.count - consumed, length - copied)
            first.withUnsafeBytes { bytes in
                (UnsafeMutableRawPointer(buffer) + copied).copyMemory(from: bytes.baseAddress! + consumed, byteCount: count)
            }
            copied += count
            consumed += count
            if consumed == first.count {
                input.removeFirst()
                consumed = 0
            }
        }
        unreadCount -= copied
        return copied
    }

    private func write(_ bytes: UnsafePointer<CChar>, _ length: Int) {
        output.append(UnsafeRawPointer(bytes).assumingMemoryBound(to: UInt8.self), count: length)
    }

    private static func stream(of bio: OpaquePointer) -> OpenSSLRecordStream? {
        BIO_get_data(bio).map { Unmanaged<OpenSSLRecordStream>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The method, made once per process and never freed (every session's BIO points at it).
    private static let method = Method()

    /// `@unchecked Sendable`: `pointer` is a `let`, and the `BIO_METHOD` it points at is filled in
    /// by `init` and only read after, by every session's BIO.
    private final class Method: @unchecked Sendable {
        let pointer: OpaquePointer?

        init() {
            guard let method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "tunnelvision records"),
                  BIO_meth_set_read(method, OpenSSLRecordStream.readCallback) == 1,
                  BIO_meth_set_write(method, OpenSSLRecordStream.writeCallback) == 1,
                  BIO_meth_set_ctrl(method, OpenSSLRecordStream.controlCallback) == 1 else {
                pointer = nil
                return
            }
            pointer = method
        }
    }

    /// `BIO_read`: as `BIO_s_mem`, -1 and "retry read" when empty.
    private static let readCallback: @convention(c) (OpaquePointer?, UnsafeMutablePointer<CChar>?, Int32) -> Int32 = { bio, buffer, length in
        guard let bio else { return -1 }
        BIO_clear_flags(bio, BIO_FLAGS_READ | BIO_FLAGS_WRITE | BIO_FLAGS_IO_SPECIAL | BIO_FLAGS_SHOULD_RETRY)
        guard let buffer, length > 0, let stream = stream(of: bio) else { return 0 }
        let count = stream.read(into: buffer, Int(length))
        guard count > 0 else {
            BIO_set_flags(bio, BIO_FLAGS_READ | BIO_FLAGS_SHOULD_RETRY)
            return -1
        }
        return Int32(count)
    }

    /// `BIO_write`: always taken whole.
    private static let writeCallback: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32 = { bio, bytes, length in
        guard let bio else { return -1 }
        BIO_clear_flags(bio, BIO_FLAGS_READ | BIO_FLAGS_WRITE | BIO_FLAGS_IO_SPECIAL | BIO_FLAGS_SHOULD_RETRY)
        guard let bytes, length > 0, let stream = stream(of: bio) else { return 0 }
        stream.write(bytes, Int(length))
        return length
    }

    /// The controls `BIO_s_mem` answers that an `SSL` asks; anything else is not supported (0).
    private static let controlCallback: @convention(c) (OpaquePointer?, Int32, Int, UnsafeMutableRawPointer?) -> Int = { bio, command, _, _ in
        guard let bio, let stream = stream(of: bio) else { return 0 }
        switch command {
        case BIO_CTRL_FLUSH, BIO_CTRL_DUP: return 1
        case BIO_CTRL_PENDING: return stream.unreadCount
        case BIO_CTRL_EOF: return stream.unreadCount == 0 ? 1 : 0
        default: return 0     // BIO_CTRL_WPENDING included: nothing waits on OpenSSL's side
        }
    }
}
