#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// One record read back from a capture file.
package struct CaptureRecord: Sendable, Hashable {
    package let header: PcapFormat.RecordHeader
    package let bytes: [UInt8]

    package init(header: PcapFormat.RecordHeader, bytes: [UInt8]) {
        self.header = header
        self.bytes = bytes
    }
}

/// Turns a `CaptureLocation` back into its record with three short reads and no scan: the global
/// header (for the snaplen), the record header at the offset, then `incl_len` bytes — bounded by
/// the snaplen before anything is allocated.
package struct PcapRecordReader: Sendable {
    package let directory: URL

    package init(directory: URL) {
        self.directory = directory
    }

    package func read(_ location: CaptureLocation) throws(PcapReadError) -> CaptureRecord {
        let files: [UInt32: URL]
        do { files = try CaptureDirectory.files(in: directory) } catch {
            throw .unreadable(path: error.path, errno: error.errno)
        }
        guard let url = files[location.fileSequence] else { throw .fileNotFound(sequence: location.fileSequence) }
        return try Self.read(recordAt: location.recordOffset, in: url)
    }

    /// The record at `offset` of the capture file at `url`.
    package static func read(recordAt offset: UInt64, in url: URL) throws(PcapReadError) -> CaptureRecord {
        let (descriptor, status) = try open(url)
        defer { close(descriptor) }
        let fileSize = UInt64(status.st_size)

        var global = [UInt8](repeating: 0, count: PcapFormat.globalHeaderLength)
        let globalRead = try readFully(descriptor, into: &global, at: 0, path: url.path)
        let globalHeader = try global.withUnsafeBytes { bytes in
            Result { () throws(PcapFormat.FormatError) in
                try PcapFormat.GlobalHeader(parsing: UnsafeRawBufferPointer(rebasing: bytes[0..<globalRead]))
            }
        }.mapError(PcapReadError.format).get()

        guard offset >= UInt64(PcapFormat.globalHeaderLength) else { throw .offsetInsideGlobalHeader(offset: offset) }
        guard offset < fileSize else { throw .offsetPastEnd(offset: offset, fileSize: fileSize) }
        let headerLength = UInt64(PcapFormat.recordHeaderLength)
        guard fileSize - offset >= headerLength else {
            throw .recordCutShort(offset: offset, expected: headerLength, available: fileSize - offset)
        }
        var recordHeaderBytes = [UInt8](repeating: 0, count: PcapFormat.recordHeaderLength)
        _ = try readFully(descriptor, into: &recordHeaderBytes, at: offset, path: url.path)
        let header = try recordHeaderBytes.withUnsafeBytes { bytes in
            Result { () throws(PcapFormat.FormatError) in try PcapFormat.RecordHeader(parsing: bytes) }
        }.mapError(PcapReadError.format).get()
        guard header.inclLen <= globalHeader.snaplen else {
            throw .inclLenExceedsSnaplen(offset: offset, inclLen: header.inclLen, snaplen: globalHeader.snaplen)
        }
        let available = fileSize - offset - headerLength
        guard UInt64(header.inclLen) <= available else {
            throw .recordCutShort(offset: offset, expected: headerLength + UInt64(header.inclLen),
                                  available: available + headerLength)
        }
        var bytes = [UInt8](repeating: 0, count: Int(header.inclLen))
        let got = try readFully(descriptor, into: &bytes, at: offset + headerLength, path: url.path)
        guard got == bytes.count else {
            throw .recordCutShort(offset: offset, expected: headerLength + UInt64(header.inclLen),
                                  available: headerLength + UInt64(got))
        }
        return CaptureRecord(header: header, bytes: bytes)
    }

    /// The capture file at `url` opened for reading, with its status; `fileNotFound` when it is
    /// gone. The caller closes the descriptor.
    static func open(_ url: URL) throws(PcapReadError) -> (descriptor: Int32, status: stat) {
        let descriptor = Glibc.open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let failure = errno
            if failure == ENOENT, let sequence = CaptureFileName.sequence(in: url.lastPathComponent) {
                throw .fileNotFound(sequence: sequence)
            }
            throw .unreadable(path: url.path, errno: failure)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let failure = errno
            close(descriptor)
            throw .unreadable(path: url.path, errno: failure)
        }
        return (descriptor, status)
    }

    /// pread until `buffer` is full or the file ends; returns the bytes read.
    private static func readFully(_ descriptor: Int32, into buffer: inout [UInt8], at offset: UInt64,
                                  path: String) throws(PcapReadError) -> Int {
        try buffer.withUnsafeMutableBytes { raw in
            Result { () throws(PcapReadError) in try readFully(descriptor, into: raw, at: offset, path: path) }
        }.get()
    }

    /// pread until `buffer` is full or the file ends; returns the bytes read.
    static func readFully(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64,
                          path: String) throws(PcapReadError) -> Int {
        var total = 0
        while total < buffer.count {
            let result = pread(descriptor, buffer.baseAddress! + total, buffer.count - total, off_t(offset) + off_t(total))
            if result < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, errno: errno)
            }
            if result == 0 { break }
            total += result
        }
        return total
    }
}
