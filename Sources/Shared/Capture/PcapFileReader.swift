#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision

/// Reads a whole classic capture of bare IP datagrams front to back, in either byte order and
/// either timestamp precision — captures made elsewhere included. The file is mapped, so records
/// are handed out as views with no copy.
///
/// Sendable by hand: nothing in it changes after `init`, and the mapping is read-only
/// (`PROT_READ`) until `deinit`, so several threads may read one file through it at once.
public final class PcapFileReader: @unchecked Sendable {
    public let path: String
    public let header: PcapFormat.GlobalHeader
    public let fileSize: Int
    private let mapping: UnsafeRawBufferPointer

    /// One record as a view into the mapping, valid only inside the `forEachRecord` body.
    public struct Record {
        /// 0-based position in the file.
        public let index: Int
        /// Offset of the record header in the file.
        public let offset: Int
        public let header: PcapFormat.RecordHeader
        public let bytes: UnsafeRawBufferPointer
        public let nanosecondsSince1970: Int64
    }

    public init(path: String, accepting acceptance: PcapFormat.Acceptance = .anyRawIP) throws(PcapReadError) {
        self.path = path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: path, errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(path: path, errno: errno) }
        // A capture is mapped, so it must be a regular file (not a pipe or a device).
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path: path) }
        fileSize = Int(status.st_size)
        if fileSize == 0 {
            throw .format(.shortHeader(expected: PcapFormat.globalHeaderLength, actual: 0))
        }
        guard let base = mmap(nil, fileSize, PROT_READ, MAP_PRIVATE, descriptor, 0), base != MAP_FAILED else {
            throw .unreadable(path: path, errno: errno)
        }
        madvise(base, fileSize, MADV_SEQUENTIAL)
        mapping = UnsafeRawBufferPointer(start: base, count: fileSize)
        do {
            header = try PcapFormat.GlobalHeader(parsing: mapping, accepting: acceptance)
        } catch {
            munmap(base, fileSize)
            throw .format(error)
        }
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: mapping.baseAddress), fileSize)
    }

    /// Bytes of the file touched ahead of the record being handed out. A record's header is a
    /// cache miss of its own, and the next one's address is known only once it is read: touching
    /// every line a window ahead sends those misses out together (about a tenth of `analyze`).
    static let readAhead = 64 << 10

    /// How far behind the record being handed out the file's pages stay mapped in, and the step
    /// in which they are let go. Pages read stay resident otherwise, so a capture's whole size
    /// would count in the reader's memory; several readers of one mapping keep within this of
    /// each other (one further behind maps its pages in again from the page cache).
    static let keptBehind = 4 << 20
    static let releaseStep = 1 << 20

    /// Calls `body` with each record in order. Stops at the first corrupt record and throws its
    /// error after the good records before it were handed out; `body` may throw to stop early.
    public func forEachRecord<E: Error>(_ body: (Record) throws(E) -> Void) throws(PcapFileReadError<E>) {
        var offset = PcapFormat.globalHeaderLength
        var index = 0
        let headerLength = PcapFormat.recordHeaderLength
        let swapped = header.isByteSwapped
        let nanoseconds = header.hasNanosecondTimestamps
        var touchedTo = offset
        var releasedTo = 0
        while offset < fileSize {
            if offset - releasedTo >= Self.keptBehind + Self.releaseStep {
                // Read-only and never written, so the pages come back from the file if touched again.
                let end = (offset - Self.keptBehind) & ~(Int(getpagesize()) - 1)
                madvise(UnsafeMutableRawPointer(mutating: mapping.baseAddress! + releasedTo), end - releasedTo, MADV_DONTNEED)
                releasedTo = end
            }
            if offset + Self.readAhead > touchedTo, touchedTo < fileSize {
                let end = min(fileSize, touchedTo + Self.readAhead)
                ctv_touch_lines(mapping.baseAddress! + touchedTo, end - touchedTo)
                touchedTo = end
            }
            guard fileSize - offset >= headerLength else {
                throw .corrupt(.recordCutShort(offset: UInt64(offset), expected: UInt64(headerLength),
                                               available: UInt64(fileSize - offset)), recordIndex: index)
            }
            let recordHeader: PcapFormat.RecordHeader
            do {
                recordHeader = try PcapFormat.RecordHeader(
                    parsing: UnsafeRawBufferPointer(rebasing: mapping[offset..<(offset + headerLength)]), byteSwapped: swapped)
            } catch { throw .corrupt(.format(error), recordIndex: index) }
            let included = Int(recordHeader.inclLen)
            guard recordHeader.inclLen <= header.snaplen else {
                throw .corrupt(.inclLenExceedsSnaplen(offset: UInt64(offset), inclLen: recordHeader.inclLen,
                                                      snaplen: header.snaplen), recordIndex: index)
            }
            let dataStart = offset + headerLength
            guard fileSize - dataStart >= included else {
                throw .corrupt(.recordCutShort(offset: UInt64(offset), expected: UInt64(headerLength + included),
                                               available: UInt64(fileSize - offset)), recordIndex: index)
            }
            let record = Record(index: index, offset: offset, header: recordHeader,
                                bytes: UnsafeRawBufferPointer(rebasing: mapping[dataStart..<(dataStart + included)]),
                                nanosecondsSince1970: recordHeader.nanosecondsSince1970(nanosecondTimestamps: nanoseconds))
            do { try body(record) } catch { throw .stopped(error) }
            offset = dataStart + included
            index += 1
        }
    }
}

/// How a front-to-back read ended early: a corrupt record, or the caller's own error.
public enum PcapFileReadError<Stop: Error>: Error {
    case corrupt(PcapReadError, recordIndex: Int)
    case stopped(Stop)
}
