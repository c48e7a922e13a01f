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
package final class PcapFileWriter: @unchecked Sendable {
    package struct Config: Sendable {
        package var directory: URL
        package var snaplen: UInt32
        /// A file that would grow past this rotates first (a single larger record still fits alone).
        package var maxFileBytes: UInt64
        /// `FlowStore.highestCaptureFileSequence()`: a deleted file's number stays taken.
        package var highestReferencedSequence: UInt32?
        /// Called with a file's sequence just before the writer creates it (the first included,
        /// after the previous one is written out and closed), so the owner can make room for it
        /// (`RetentionPass.makeRoom`). On the writer's thread: it must not wait on that thread.
        package var beforeOpening: (@Sendable (UInt32) -> Void)?

        package init(directory: URL, snaplen: UInt32 = CaptureDetail.fullPayload.snaplen,
                    maxFileBytes: UInt64 = PcapFileWriter.defaultMaxFileBytes,
                    highestReferencedSequence: UInt32? = nil, beforeOpening: (@Sendable (UInt32) -> Void)? = nil) {
            self.directory = directory
            self.snaplen = snaplen
            self.maxFileBytes = maxFileBytes
            self.highestReferencedSequence = highestReferencedSequence
            self.beforeOpening = beforeOpening
        }
    }

    package static let defaultMaxFileBytes: UInt64 = 64 << 20
    /// Records are gathered up to this many bytes before one write(2).
    static let bufferCapacity = 64 << 10

    private var config: Config
    private let wallClock: @Sendable () -> Int64
    private var file: RotatingFile?
    private var buffer: [UInt8] = []
    private var written: [URL] = []
    private var broken = false
    /// Records in `buffer`, and records the kernel took whole.
    private var bufferedRecords: UInt64 = 0
    package private(set) var recordsWritten: UInt64 = 0

    /// Opens the first file and writes its global header. `wallClock` (ns since 1970) names files.
    package init(config: Config,
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
        guard let first = RotatingFile.nextSequence(after: existing.keys.max(), config.highestReferencedSequence) else {
            throw .sequenceExhausted
        }
        try open(first)
    }

    deinit { file?.close() }

    package var currentFileSequence: UInt32 { file?.sequence ?? 0 }
    package var snaplen: UInt32 { config.snaplen }

    /// Appends one record: the first `snaplen` bytes of `packet`, whose full length was
    /// `originalLength`, stamped with wall-clock `timestamp` (ns since 1970; the caller converts
    /// monotonic stamps with its `MonotonicAnchor`).
    @discardableResult
    package func write(packet: Data, originalLength: Int, timestamp: Int64) throws(PcapError) -> CaptureLocation {
        let result: Result<CaptureLocation, PcapError> = packet.withUnsafeBytes { bytes in
            do throws(PcapError) {
                return .success(try write(bytes: bytes, originalLength: originalLength, timestamp: timestamp))
            } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// `write(packet:…)` for bytes the caller holds; copies them into the buffer and keeps nothing.
    @discardableResult
    package func write(bytes: UnsafeRawBufferPointer, originalLength: Int, timestamp: Int64) throws(PcapError) -> CaptureLocation {
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
    package func rotate() throws(PcapError) {
        guard !broken, let current = file else { throw .closed }
        try writeOut()
        current.close()
        file = nil
        guard let next = RotatingFile.nextSequence(after: current.sequence) else { broken = true; throw .sequenceExhausted }
        do { try open(next) } catch {
            broken = true
            throw error
        }
    }

    /// Changes the snaplen. It lives in the global header, so a change starts a new file; the same
    /// value is a no-op.
    package func setSnaplen(_ snaplen: UInt32) throws(PcapError) {
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
    package func writeOut() throws(PcapError) {
        guard let current = file else { return }
        if let failure = current.writeOut(&buffer) {
            broken = true
            bufferedRecords = 0
            throw .writeFailed(path: failure.path, errno: failure.errno)
        }
        recordsWritten += bufferedRecords
        bufferedRecords = 0
    }

    /// Writes out what is buffered and syncs it to disk, without closing.
    package func flush() throws(PcapError) {
        guard !broken, let current = file else { throw .closed }
        try writeOut()
        if let failure = current.sync() { broken = true; throw .writeFailed(path: failure.path, errno: failure.errno) }
    }

    /// Flushes and closes. Further writes throw `.closed`.
    package func close() throws(PcapError) {
        guard let current = file else { return }
        defer { current.close(); file = nil }
        if !broken { try flush() }
    }

    /// The files this writer created, oldest first.
    package func captureFiles() -> [URL] { written }

    /// Makes room for file `sequence` (the owner's `beforeOpening`), creates it and buffers its
    /// global header.
    private func open(_ sequence: UInt32) throws(PcapError) {
        config.beforeOpening?(sequence)
        var header = [UInt8](repeating: 0, count: PcapFormat.globalHeaderLength)
        header.withUnsafeMutableBytes { PcapFormat.GlobalHeader(snaplen: config.snaplen).emit(into: $0) }
        let name = CaptureFileName.make(sequence: sequence, nanosecondsSince1970: wallClock())
        switch RotatingFile.create(name, in: config.directory, sequence: sequence, header: header, buffer: &buffer) {
        case .success(let opened):
            file = opened
            written.append(opened.url)
        case .failure(let failure):
            throw .openFailed(path: failure.path, errno: failure.errno)
        }
    }
}
