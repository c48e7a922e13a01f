#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Streams decrypted chunks into rotating `.tvpt` files (`PlaintextFormat`) and says where each
/// record landed. Differs from `PcapFileWriter` on purpose: (1) no file exists until something is
/// decrypted (lazy open; `init` touches no disk); (2) `rotate()` closes without opening the next
/// file, so no empty file is ever left; (3) `currentFileSequence` is nil while nothing is open.
///
/// The spec's actor is a final class here: the relay hands chunks to the pipeline synchronously on
/// the tunnel's one event-loop thread, where an actor hop per chunk is the cost the hot path
/// avoids. `@unchecked Sendable` only so the owner can hand it to that thread: one thread at a
/// time, never two.
///
/// Sequences never restart: a file opens above the highest in the directory, the highest the index
/// references and the last this writer used. Stream ids start above what the index references.
/// Once a write or sync fails the writer is broken: every later call throws `.closed`.
package final class PlaintextWriter: @unchecked Sendable {
    package struct Config: Sendable {
        package var directory: URL
        package var maxRecordBytes: UInt32
        /// A file that would grow past this rotates first (one record still fits alone).
        package var maxFileBytes: UInt64
        /// `FlowStore.highestPlaintextFileSequence()`: a deleted file's number stays taken.
        package var highestReferencedSequence: UInt32?
        /// `FlowStore.highestPlaintextStream()`.
        package var highestReferencedStream: UInt64?

        package init(directory: URL, maxRecordBytes: UInt32 = PlaintextFormat.defaultMaxRecordBytes,
                    maxFileBytes: UInt64 = PlaintextWriter.defaultMaxFileBytes,
                    highestReferencedSequence: UInt32? = nil, highestReferencedStream: UInt64? = nil) {
            self.directory = directory
            self.maxRecordBytes = maxRecordBytes
            self.maxFileBytes = maxFileBytes
            self.highestReferencedSequence = highestReferencedSequence
            self.highestReferencedStream = highestReferencedStream
        }
    }

    /// One 16 MB file mixes conversations (spec-notes/plaintext.md, bounds).
    package static let defaultMaxFileBytes: UInt64 = 16 << 20
    static let bufferCapacity = 64 << 10

    package let config: Config
    private let wallClock: @Sendable () -> Int64
    private var file: RotatingFile?
    private var buffer: [UInt8] = []
    private var written: [URL] = []
    private var lastSequence: UInt32 = 0
    private var lastStream: UInt64
    private var broken = false
    private var closed = false

    package init(config: Config,
                wallClock: @escaping @Sendable () -> Int64 = { MonotonicAnchor.now().wallClockNanosecondsSince1970 }) {
        self.config = config
        self.wallClock = wallClock
        lastStream = config.highestReferencedStream ?? 0
    }

    deinit { file?.close() }

    /// The file being written, nil while none is open.
    package var currentFileSequence: UInt32? { file?.sequence }

    /// A new conversation id, one per inspected flow (never per chunk).
    package func openStream() -> UInt64 {
        lastStream += 1
        return lastStream
    }

    /// Appends one record: the first `maxRecordBytes` of `plaintext`, which carried
    /// `originalLength` bytes (the budget may already have cut it; nil: its own length), stamped
    /// with absolute `timestamp` (signed ns since 1970). An empty chunk that carried bytes is a
    /// gap — a record keeping nothing (`PlaintextBudget`); one that carried none stores nothing (nil).
    @discardableResult
    package func write(_ plaintext: Data, originalLength: Int? = nil, stream: UInt64, direction: Direction,
                      timestamp: Int64) throws(PlaintextWriteError) -> PlaintextLocation? {
        guard !broken, !closed else { throw .closed }
        guard !plaintext.isEmpty || (originalLength ?? 0) > 0 else { return nil }
        let stored = min(plaintext.count, Int(config.maxRecordBytes))
        let recordLength = UInt64(PlaintextFormat.recordHeaderLength + stored)
        if let current = file, current.size > UInt64(PlaintextFormat.globalHeaderLength),
           current.size + recordLength > config.maxFileBytes {
            try rotate()
        }
        if file == nil { try openNext() }
        var current = file!
        let header = PlaintextFormat.RecordHeader(
            stream: stream, timestamp: timestamp, storedLength: UInt32(stored),
            originalLength: UInt32(clamping: max(originalLength ?? plaintext.count, stored)), direction: direction)
        buffer.append(contentsOf: header.bytes)
        buffer.append(contentsOf: plaintext.prefix(stored))
        let location = PlaintextLocation(fileSequence: current.sequence, recordOffset: current.size)
        current.size += recordLength
        file = current
        if buffer.count >= Self.bufferCapacity { try writeOut() }
        return location
    }

    /// Closes the current file; the next write opens the next sequence. Opens nothing.
    package func rotate() throws(PlaintextWriteError) {
        guard !broken, !closed else { throw .closed }
        guard let current = file else { return }
        defer { current.close(); file = nil }
        try writeOut()
    }

    /// Hands what is buffered to the kernel (one write(2)), so every location returned so far
    /// reads back from another process. A write the disk cannot take (or one into
    /// `DiskReserve.captureBytes`) is cut back to whole records and breaks the writer.
    package func writeOut() throws(PlaintextWriteError) {
        guard let current = file else { return }
        if let failure = current.writeOut(&buffer) {
            broken = true
            throw .writeFailed(path: failure.path, errno: failure.errno)
        }
    }

    /// Writes out what is buffered and syncs it, without closing. Nothing open: nothing to do.
    package func flush() throws(PlaintextWriteError) {
        guard !broken, !closed else { throw .closed }
        guard let current = file else { return }
        try writeOut()
        if let failure = current.sync() { broken = true; throw .writeFailed(path: failure.path, errno: failure.errno) }
    }

    /// Flushes and closes. Further writes throw `.closed`.
    package func close() throws(PlaintextWriteError) {
        guard !closed else { return }
        defer {
            file?.close()
            file = nil
            closed = true
        }
        if !broken, file != nil { try flush() }
    }

    /// The files this writer created, oldest first.
    package func files() -> [URL] { written }

    private func openNext() throws(PlaintextWriteError) {
        let existing: [UInt32: URL]
        do {
            try PrivateDirectory.create(config.directory)
            existing = try PlaintextDirectory.files(in: config.directory)
        } catch {
            broken = true
            throw .openFailed(path: error.path, errno: error.errno)
        }
        guard let sequence = RotatingFile.nextSequence(after: existing.keys.max(), config.highestReferencedSequence, lastSequence) else {
            broken = true
            throw .sequenceExhausted
        }
        let name = PlaintextFileName.make(sequence: sequence, nanosecondsSince1970: wallClock())
        let header = PlaintextFormat.GlobalHeader(maxRecordBytes: config.maxRecordBytes).bytes
        switch RotatingFile.create(name, in: config.directory, sequence: sequence, header: header, buffer: &buffer) {
        case .success(let opened):
            lastSequence = sequence
            file = opened
            written.append(opened.url)
        case .failure(let failure):
            broken = true
            throw .openFailed(path: failure.path, errno: failure.errno)
        }
    }
}
