#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Streams packets into rotating classic `.pcap` files (LINKTYPE_RAW) and says where each record
/// landed — synchronously, for one owner. Files are `CaptureFileName`s whose sequence is never
/// reused: a new writer starts after both the highest file in the directory and the highest the
/// history still references.
///
/// The tunnel's event loop calls it once per packet, so it is a plain class, not an actor (an
/// actor hop per packet is the cost the hot path avoids; STYLE practice 10). `PcapWriter` is the
/// actor wrapper for callers off that loop. `@unchecked Sendable` only so the owner can hand it to
/// the thread that uses it: one thread at a time, never two.
///
/// Once a write, sync or rotation fails the writer is broken: every later call throws `.closed`.
public final class PcapFileWriter: @unchecked Sendable {
    public struct Config: Sendable {
        public var directory: URL
        public var snaplen: UInt32
        /// A file that would grow past this rotates first (a single larger record still fits alone).
        public var maxFileBytes: UInt64
        /// `FlowStore.highestCaptureFileSequence()`: a deleted file's number stays taken.
        public var highestReferencedSequence: UInt32?
        /// Called with a file's sequence just before the writer creates it (the first included,
        /// after the previous one is written out and closed), so the owner can make room for it
        /// (`RetentionPass.makeRoom`). On the writer's thread: it must not wait on that thread.
        public var beforeOpening: (@Sendable (UInt32) -> Void)?

        public init(directory: URL, snaplen: UInt32 = CaptureDetail.fullPayload.snaplen,
                    maxFileBytes: UInt64 = PcapFileWriter.defaultMaxFileBytes,
                    highestReferencedSequence: UInt32? = nil, beforeOpening: (@Sendable (UInt32) -> Void)? = nil) {
            self.directory = directory
            self.snaplen = snaplen
            self.maxFileBytes = maxFileBytes
            self.highestReferencedSequence = highestReferencedSequence
            self.beforeOpening = beforeOpening
        }
    }

    public static let defaultMaxFileBytes: UInt64 = 64 << 20
    /// Records are gathered up to this many bytes before one write(2).
    static let bufferCapacity = 64 << 10

    private var config: Config
    private let wallClock: @Sendable () -> Int64
    private var file: OpenFile?
    private var buffer: [UInt8] = []
    private var written: [URL] = []
    private var broken = false
    /// Records in `buffer`, and records the kernel took whole.
    private var bufferedRecords: UInt64 = 0
    public private(set) var recordsWritten: UInt64 = 0

    private struct OpenFile {
        let descriptor: Int32
        let sequence: UInt32
        let url: URL
        /// Bytes in the file once the buffer is written out: the next record's offset.
        var size: UInt64
    }

    /// Opens the first file and writes its global header. `wallClock` (ns since 1970) names files.
    public init(config: Config,
                wallClock: @escaping @Sendable () -> Int64 = { MonotonicAnchor.now().wallClockNanosecondsSince1970 })
    throws(PcapError) {
        self.config = config
        self.wallClock = wallClock
        buffer.reserveCapacity(Self.bufferCapacity)
        let existing: [UInt32: URL]
        do {
            try PrivateDirectory.create(config.directory)
            existing = try CaptureDirectory.files(in: config.directory)
        } catch {
            throw .openFailed(path: error.path, errno: error.errno)
        }
        let highest = max(existing.keys.max() ?? 0, config.highestReferencedSequence ?? 0)
        guard highest < UInt32.max else { throw .sequenceExhausted }
        config.beforeOpening?(highest + 1)
        let first = try Self.open(sequence: highest + 1, in: config.directory, snaplen: config.snaplen,
                                  at: wallClock(), buffer: &buffer)
        file = first
        written.append(first.url)
    }

    deinit {
        if let file { _ = Glibc.close(file.descriptor) }
    }

    public var currentFileSequence: UInt32 { file?.sequence ?? 0 }
    public var snaplen: UInt32 { config.snaplen }

    /// Appends one record: the first `snaplen` bytes of `packet`, whose full length was
    /// `originalLength`, stamped with wall-clock `timestamp` (ns since 1970; the caller converts
    /// monotonic stamps with its `MonotonicAnchor`).
    @discardableResult
    public func write(packet: Data, originalLength: Int, timestamp: Int64) throws(PcapError) -> CaptureLocation {
        let result: Result<CaptureLocation, PcapError> = packet.withUnsafeBytes { bytes in
            do throws(PcapError) {
                return .success(try write(bytes: bytes, originalLength: originalLength, timestamp: timestamp))
            } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// `write(packet:…)` for bytes the caller holds; copies them into the buffer and keeps nothing.
    @discardableResult
    public func write(bytes: UnsafeRawBufferPointer, originalLength: Int, timestamp: Int64) throws(PcapError) -> CaptureLocation {
        guard !broken, var current = file else { throw .closed }
        let included = min(bytes.count, Int(config.snaplen))
        let recordLength = UInt64(PcapFormat.recordHeaderLength + included)
        if current.size > UInt64(PcapFormat.globalHeaderLength), current.size + recordLength > config.maxFileBytes {
            try rotate()
            current = file!
        }
        let header = PcapFormat.RecordHeader(nanosecondsSince1970: timestamp, inclLen: UInt32(included),
                                             origLen: UInt32(clamping: max(originalLength, included)))
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: PcapFormat.recordHeaderLength))
        buffer.withUnsafeMutableBytes { header.emit(into: UnsafeMutableRawBufferPointer(rebasing: $0[start...])) }
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<included]))
        let location = CaptureLocation(fileSequence: current.sequence, recordOffset: current.size)
        current.size += recordLength
        file = current
        bufferedRecords += 1
        if buffer.count >= Self.bufferCapacity { try writeOut() }
        return location
    }

    /// Closes the current file and starts the next sequence.
    public func rotate() throws(PcapError) {
        guard !broken, let current = file else { throw .closed }
        try writeOut()
        _ = Glibc.close(current.descriptor)
        file = nil
        guard current.sequence < UInt32.max else { broken = true; throw .sequenceExhausted }
        config.beforeOpening?(current.sequence + 1)
        do {
            let next = try Self.open(sequence: current.sequence + 1, in: config.directory, snaplen: config.snaplen,
                                     at: wallClock(), buffer: &buffer)
            file = next
            written.append(next.url)
        } catch {
            broken = true
            throw error
        }
    }

    /// Changes the snaplen. It lives in the global header, so a change starts a new file; the same
    /// value is a no-op.
    public func setSnaplen(_ snaplen: UInt32) throws(PcapError) {
        guard snaplen != config.snaplen else { return }
        config.snaplen = snaplen
        try rotate()
    }

    /// Hands what is buffered to the kernel (one write(2), no sync), so every location returned so
    /// far reads back from another process. Cheap enough for every store batch.
    ///
    /// A write the disk cannot take (a full disk) is cut back to the file as it was before it, so
    /// the file stays whole records that Wireshark reads, and the buffered records are lost. A
    /// write into `DiskReserve.captureBytes` fails as a full disk without being tried.
    public func writeOut() throws(PcapError) {
        guard let current = file, !buffer.isEmpty else { return }
        if let failure = DiskReserve.writeWhole(&buffer, to: current.descriptor, sizeAfter: current.size) {
            broken = true
            bufferedRecords = 0
            throw .writeFailed(path: current.url.path, errno: failure)
        }
        recordsWritten += bufferedRecords
        bufferedRecords = 0
    }

    /// Writes out what is buffered and syncs it to disk, without closing.
    public func flush() throws(PcapError) {
        guard !broken, let current = file else { throw .closed }
        try writeOut()
        if fsync(current.descriptor) != 0 { broken = true; throw .writeFailed(path: current.url.path, errno: errno) }
    }

    /// Flushes and closes. Further writes throw `.closed`.
    public func close() throws(PcapError) {
        guard let current = file else { return }
        defer { _ = Glibc.close(current.descriptor); file = nil }
        if !broken { try flush() }
    }

    /// The files this writer created, oldest first.
    public func captureFiles() -> [URL] { written }

    private static func open(sequence: UInt32, in directory: URL, snaplen: UInt32, at nanoseconds: Int64,
                             buffer: inout [UInt8]) throws(PcapError) -> OpenFile {
        let url = directory.appendingPathComponent(CaptureFileName.make(sequence: sequence, nanosecondsSince1970: nanoseconds))
        // O_EXCL: a sequence is an identity, so an existing file is never truncated or appended to;
        // it also refuses a symbolic link planted at the name (O_NOFOLLOW says so for certain).
        let descriptor = Glibc.open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            // O_EXCL answers EEXIST for a link at the name: say what is there.
            let planted = errno == EEXIST && PathStatus.of(url.path)?.kind == .symbolicLink
            throw .openFailed(path: url.path, errno: planted ? ELOOP : errno)
        }
        let start = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: PcapFormat.globalHeaderLength))
        buffer.withUnsafeMutableBytes {
            PcapFormat.GlobalHeader(snaplen: snaplen).emit(into: UnsafeMutableRawBufferPointer(rebasing: $0[start...]))
        }
        return OpenFile(descriptor: descriptor, sequence: sequence, url: url, size: UInt64(PcapFormat.globalHeaderLength))
    }
}
