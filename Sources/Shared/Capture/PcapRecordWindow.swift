#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// One classic pcap file read record by record at rising offsets — the records a history points
/// at, not every record of the file — through one buffer refilled by a single `pread` a window at
/// a time: a file of a hundred thousand wanted records costs a few dozen reads, not three reads
/// each (`PcapRecordReader`), and nothing of the file stays in the reader's memory but the window.
///
/// Checked as `PcapRecordReader` checks: the global header (any raw-IP capture, either byte order
/// and precision), then per record the offset, the header, `incl_len` against the snaplen before
/// anything is read, and the bytes all there.
final class PcapRecordWindow {
    let url: URL
    let header: PcapFormat.GlobalHeader
    let fileSize: UInt64
    private let descriptor: Int32
    private var buffer: UnsafeMutableRawBufferPointer
    /// The file offset of `buffer[0]`, and how many bytes of the buffer hold the file.
    private var windowStart: UInt64 = 0
    private var windowCount = 0

    /// Bytes read at once: a window holds a few thousand ordinary records.
    static let windowSize = 1 << 20

    init(url: URL) throws(PcapReadError) {
        self.url = url
        let (descriptor, status) = try PcapRecordReader.open(url)
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw .notARegularFile(path: url.path)
        }
        self.descriptor = descriptor
        fileSize = UInt64(status.st_size)
        let first = UnsafeMutableRawBufferPointer.allocate(byteCount: PcapFormat.globalHeaderLength, alignment: 8)
        do {
            let count = try PcapRecordReader.readFully(descriptor, into: first, at: 0, path: url.path)
            header = try Result { () throws(PcapFormat.FormatError) in
                try PcapFormat.GlobalHeader(parsing: UnsafeRawBufferPointer(rebasing: first[0..<count]), accepting: .anyRawIP)
            }.mapError(PcapReadError.format).get()
        } catch {
            first.deallocate()
            close(descriptor)
            throw error
        }
        buffer = first
    }

    deinit {
        buffer.deallocate()
        close(descriptor)
    }

    /// The record at `offset`: its header and its bytes, which stay valid until the next call.
    /// Reads go fastest at rising offsets; any offset is answered.
    func record(at offset: UInt64) throws(PcapReadError) -> (header: PcapFormat.RecordHeader, bytes: UnsafeRawBufferPointer) {
        let headerLength = PcapFormat.recordHeaderLength
        guard offset >= UInt64(PcapFormat.globalHeaderLength) else { throw .offsetInsideGlobalHeader(offset: offset) }
        guard offset < fileSize else { throw .offsetPastEnd(offset: offset, fileSize: fileSize) }
        let available = fileSize - offset
        guard available >= UInt64(headerLength) else {
            throw .recordCutShort(offset: offset, expected: UInt64(headerLength), available: available)
        }
        var start = try window(offset, length: headerLength)
        let recordHeader = try Result { () throws(PcapFormat.FormatError) in
            try PcapFormat.RecordHeader(parsing: UnsafeRawBufferPointer(rebasing: buffer[start..<start + headerLength]),
                                        byteSwapped: header.isByteSwapped)
        }.mapError(PcapReadError.format).get()
        guard recordHeader.inclLen <= header.snaplen else {
            throw .inclLenExceedsSnaplen(offset: offset, inclLen: recordHeader.inclLen, snaplen: header.snaplen)
        }
        let length = headerLength + Int(recordHeader.inclLen)
        guard UInt64(length) <= available else {
            throw .recordCutShort(offset: offset, expected: UInt64(length), available: available)
        }
        start = try window(offset, length: length)
        return (recordHeader, UnsafeRawBufferPointer(rebasing: buffer[start + headerLength..<start + length]))
    }

    /// Where `length` bytes at file `offset` start in the buffer, reading a new window from
    /// `offset` when they are not all in the current one.
    private func window(_ offset: UInt64, length: Int) throws(PcapReadError) -> Int {
        if offset >= windowStart, offset + UInt64(length) <= windowStart + UInt64(windowCount) {
            return Int(offset - windowStart)
        }
        let size = max(Self.windowSize, length)
        if buffer.count < size {
            buffer.deallocate()
            buffer = .allocate(byteCount: size, alignment: 8)
        }
        windowStart = offset
        windowCount = try PcapRecordReader.readFully(descriptor, into: buffer, at: offset, path: url.path)
        guard windowCount >= length else {
            throw .recordCutShort(offset: offset, expected: UInt64(length), available: UInt64(windowCount))
        }
        return 0
    }
}
