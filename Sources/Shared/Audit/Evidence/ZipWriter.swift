#if canImport(Glibc)
import Glibc
#endif
import CZlib
import Foundation

/// Writes a ZIP archive (PKWARE APPNOTE.TXT 6.3.10) of a few entries — what the evidence bundle is
/// handed over as: a folder of files, each stored or deflated (zlib, raw deflate), CRC-32 by zlib.
/// A format, not cryptography: it protects nothing, `manifest.json` inside does.
///
///   archive      = *(local-header data) central-directory end-of-central-directory   (§4.3.6)
///   local-header = 0x04034b50 · version needed · flags · method · DOS time · DOS date · CRC-32 ·
///                  compressed size · size · name length · extra length (0) · name        (§4.3.7)
///   central      = 0x02014b50 · made by · the local header's fields · comment length (0) ·
///                  disk (0) · internal attributes (0) · external attributes · local header's offset · name  (§4.3.12)
///   end          = 0x06054b50 · disk 0 · disk 0 · entries · entries · directory size · directory offset · comment length (0)  (§4.3.16)
///
/// Deterministic: one DOS timestamp for every entry (given), no extra fields, no comment, Unix
/// modes 0600 and 0700 in the external attributes; the same entries give the same bytes. Sizes
/// and CRC are known only once an entry's data is written, so its local header is written first
/// with zeros and patched in place afterwards (no data descriptor, bit 3 stays clear).
///
/// ZIP64 is not written: an entry of 4 GiB or more, an archive that would pass 4 GiB, or more than
/// 65 535 entries are refused (`ZipWriterError`), before the entry's data is written where the size
/// is known beforehand. Until `finish()` succeeds the file is the writer's: a failure, or a writer
/// let go unfinished, removes it.
package final class ZipWriter {
    package enum Method: Sendable, Hashable {
        case stored
        /// Raw deflate at zlib's `level` (1 fastest … 9 smallest).
        case deflated(level: Int32)
    }

    /// zlib's own default level.
    package static let defaultLevel: Int32 = 6

    package let url: URL
    private var descriptor: Int32
    private let time: UInt16
    private let date: UInt16
    private var offset: UInt64 = 0
    private var buffer: [UInt8] = []
    private var central: [UInt8] = []
    private var entries = 0
    private var finished = false

    // APPNOTE's constants, in one place.
    static let localHeaderSignature: UInt32 = 0x0403_4b50
    static let centralHeaderSignature: UInt32 = 0x0201_4b50
    static let endSignature: UInt32 = 0x0605_4b50
    static let localHeaderLength = 30
    /// 2.0 (deflate, folders) and 1.0 (stored files), §4.4.3.2.
    static let versionDeflate: UInt16 = 20
    static let versionStored: UInt16 = 10
    /// Made by Unix (3, §4.4.2.2), spec 2.0: the external attributes' high half is a Unix mode.
    static let madeBy: UInt16 = 3 << 8 | 20
    /// §4.4.4 bit 11: the name is UTF-8.
    static let utf8Flag: UInt16 = 1 << 11
    static let methodStored: UInt16 = 0
    static let methodDeflated: UInt16 = 8
    /// MS-DOS directory attribute (§4.4.15), beside the Unix mode.
    static let dosDirectory: UInt32 = 0x10
    static let fileMode: UInt32 = 0o100600
    static let directoryMode: UInt32 = 0o040700
    /// The largest size or offset a ZIP32 field holds: 0xFFFFFFFF itself means "see ZIP64".
    static let sizeLimit = UInt64(UInt32.max - 1)
    static let entryLimit = Int(UInt16.max)
    /// Bytes gathered before a write(2), and read from a file at once.
    static let chunkSize = 1 << 20

    /// Creates the archive at `url` (a new file, mode 0600); every entry is dated `modified`, in UTC.
    package init(url: URL, modified: Date) throws(ZipWriterError) {
        self.url = url
        (time, date) = Self.dosTimestamp(modified)
        let opened = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard opened >= 0 else { throw .cannotWrite(path: url.path, errno: errno) }
        descriptor = opened
        guard fchmod(opened, 0o600) == 0 else { throw .cannotWrite(path: url.path, errno: errno) }
        buffer.reserveCapacity(Self.chunkSize + 65_536)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if !finished { unlink(url.path) }
    }

    /// A folder entry: `name` ends with `/`, no data.
    package func addDirectory(_ name: String) throws(ZipWriterError) {
        precondition(name.hasSuffix("/"), "a folder's name ends with /")
        try addEntry(name, method: .stored, isDirectory: true, size: 0) { _ throws(ZipWriterError) in nil }
    }

    /// A file entry of `bytes`.
    package func addFile(_ name: String, bytes: [UInt8], method: Method) throws(ZipWriterError) {
        var given = false
        try addEntry(name, method: method, isDirectory: false, size: UInt64(bytes.count)) { _ throws(ZipWriterError) in
            guard !given else { return nil }
            given = true
            return bytes[...]
        }
    }

    /// A file entry of the file at `source`, read a chunk at a time.
    package func addFile(_ name: String, contentsOf source: URL, method: Method) throws(ZipWriterError) {
        let input = open(source.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard input >= 0 else { throw .cannotRead(path: source.path, errno: errno) }
        defer { close(input) }
        var status = stat()
        guard fstat(input, &status) == 0 else { throw .cannotRead(path: source.path, errno: errno) }
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        try addEntry(name, method: method, isDirectory: false, size: UInt64(status.st_size)) { _ throws(ZipWriterError) in
            let count = chunk.withUnsafeMutableBytes { raw -> Int in
                while true {
                    let result = read(input, raw.baseAddress, raw.count)
                    if result < 0 && errno == EINTR { continue }
                    return result
                }
            }
            guard count >= 0 else { throw .cannotRead(path: source.path, errno: errno) }
            return count == 0 ? nil : chunk[0..<count]
        }
    }

    /// Writes the central directory and its end, syncs and closes: the archive's size.
    @discardableResult
    package func finish() throws(ZipWriterError) -> UInt64 {
        try flush()
        let directoryOffset = offset
        guard directoryOffset + UInt64(central.count) + 22 <= Self.sizeLimit else { throw .archiveTooLarge }
        buffer += central
        Self.append(Self.endSignature, to: &buffer)
        Self.append(UInt16(0), to: &buffer)
        Self.append(UInt16(0), to: &buffer)
        Self.append(UInt16(entries), to: &buffer)
        Self.append(UInt16(entries), to: &buffer)
        Self.append(UInt32(central.count), to: &buffer)
        Self.append(UInt32(directoryOffset), to: &buffer)
        Self.append(UInt16(0), to: &buffer)
        try flush()
        guard fsync(descriptor) == 0 else { throw .cannotWrite(path: url.path, errno: errno) }
        let closed = close(descriptor)
        descriptor = -1
        guard closed == 0 else { throw .cannotWrite(path: url.path, errno: errno) }
        finished = true
        return offset
    }

    /// One entry: its local header (patched once the data is written), its data from `next`
    /// (nil once there is no more), and its central directory record.
    private func addEntry(_ name: String, method: Method, isDirectory: Bool, size: UInt64,
                          next: (Int) throws(ZipWriterError) -> ArraySlice<UInt8>?) throws(ZipWriterError) {
        let nameBytes = Array(name.utf8)
        guard !nameBytes.isEmpty, nameBytes.count <= Int(UInt16.max) else { throw .invalidName(name) }
        guard entries < Self.entryLimit else { throw .tooManyEntries }
        guard size <= Self.sizeLimit else { throw .entryTooLarge(name: name, byteCount: size) }
        try flush()
        let headerOffset = offset
        guard headerOffset + UInt64(Self.localHeaderLength + nameBytes.count) <= Self.sizeLimit else { throw .archiveTooLarge }
        let flags: UInt16 = nameBytes.contains { $0 >= 0x80 } ? Self.utf8Flag : 0
        let (methodCode, version): (UInt16, UInt16) = switch method {
        case .stored: (Self.methodStored, isDirectory ? Self.versionDeflate : Self.versionStored)
        case .deflated: (Self.methodDeflated, Self.versionDeflate)
        }
        // The fields up to the name, CRC and sizes zero until patched.
        var fixed: [UInt8] = []
        Self.append(version, to: &fixed)
        Self.append(flags, to: &fixed)
        Self.append(methodCode, to: &fixed)
        Self.append(time, to: &fixed)
        Self.append(date, to: &fixed)
        Self.append(Self.localHeaderSignature, to: &buffer)
        buffer += fixed
        buffer += [UInt8](repeating: 0, count: 12)
        Self.append(UInt16(nameBytes.count), to: &buffer)
        Self.append(UInt16(0), to: &buffer)
        buffer += nameBytes
        let dataStart = offset + UInt64(buffer.count)

        var crc = crc32(0, nil, 0)
        var read: UInt64 = 0
        switch method {
        case .stored:
            while let chunk = try next(Self.chunkSize) {
                crc = Self.crc(crc, chunk)
                read += UInt64(chunk.count)
                guard read <= Self.sizeLimit else { throw .entryTooLarge(name: name, byteCount: read) }
                buffer += chunk
                if buffer.count >= Self.chunkSize { try flush() }
            }
        case let .deflated(level):
            let deflater = try Deflater(level: level)
            while let chunk = try next(Self.chunkSize) {
                crc = Self.crc(crc, chunk)
                read += UInt64(chunk.count)
                guard read <= Self.sizeLimit else { throw .entryTooLarge(name: name, byteCount: read) }
                try deflater.deflate(chunk, finish: false, into: &buffer)
                if buffer.count >= Self.chunkSize { try flush() }
            }
            try deflater.deflate([], finish: true, into: &buffer)
        }
        try flush()
        let compressed = offset - dataStart
        guard compressed <= Self.sizeLimit else { throw .entryTooLarge(name: name, byteCount: compressed) }
        var sizes: [UInt8] = []
        Self.append(UInt32(truncatingIfNeeded: crc), to: &sizes)
        Self.append(UInt32(compressed), to: &sizes)
        Self.append(UInt32(read), to: &sizes)
        try patch(sizes, at: headerOffset + 14)

        Self.append(Self.centralHeaderSignature, to: &central)
        Self.append(Self.madeBy, to: &central)
        central += fixed
        central += sizes
        Self.append(UInt16(nameBytes.count), to: &central)
        Self.append(UInt16(0), to: &central)
        Self.append(UInt16(0), to: &central)
        Self.append(UInt16(0), to: &central)
        Self.append(UInt16(0), to: &central)
        Self.append(isDirectory ? Self.directoryMode << 16 | Self.dosDirectory : Self.fileMode << 16, to: &central)
        Self.append(UInt32(headerOffset), to: &central)
        central += nameBytes
        entries += 1
    }

    private func flush() throws(ZipWriterError) {
        guard !buffer.isEmpty else { return }
        if let failure = buffer.withUnsafeBytes({ FileDescriptor.writeAll(descriptor, $0) }) {
            throw .cannotWrite(path: url.path, errno: failure)
        }
        offset += UInt64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    private func patch(_ bytes: [UInt8], at position: UInt64) throws(ZipWriterError) {
        let count = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(position)) }
        guard count == bytes.count else { throw .cannotWrite(path: url.path, errno: count < 0 ? errno : EIO) }
    }

    private static func crc(_ crc: UInt, _ chunk: ArraySlice<UInt8>) -> UInt {
        chunk.withUnsafeBufferPointer { CZlib.crc32(crc, $0.baseAddress, UInt32($0.count)) }
    }

    static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    /// MS-DOS time and date (§4.4.6) of `moment` in UTC, to the even second; before 1980 it is
    /// 1980-01-01 00:00:00, after 2107 the last second DOS can say.
    static func dosTimestamp(_ moment: Date) -> (time: UInt16, date: UInt16) {
        let second = moment.timeIntervalSince1970.rounded(.down)
        var seconds = time_t(second.isFinite ? max(0, min(second, 9e15)) : 0)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let year = Int(parts.tm_year) + 1900
        guard year >= 1980 else { return (0, 1 << 5 | 1) }
        guard year <= 2107 else { return (23 << 11 | 59 << 5 | 29, 127 << 9 | 12 << 5 | 31) }
        let time = Int(parts.tm_hour) << 11 | Int(parts.tm_min) << 5 | Int(parts.tm_sec) / 2
        let date = (year - 1980) << 9 | (Int(parts.tm_mon) + 1) << 5 | Int(parts.tm_mday)
        return (UInt16(time), UInt16(date))
    }
}

/// One raw deflate stream (zlib, windowBits −15), appending what it makes to the caller's buffer.
/// A class: zlib keeps the stream's address in its state, so the stream must never move.
private final class Deflater {
    private var stream = z_stream()
    private var output = [UInt8](repeating: 0, count: 1 << 18)

    init(level: Int32) throws(ZipWriterError) {
        let status = deflateInit2_(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                                   Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw .deflateFailed(status) }
    }

    deinit { deflateEnd(&stream) }

    func deflate(_ input: ArraySlice<UInt8>, finish: Bool, into out: inout [UInt8]) throws(ZipWriterError) {
        var failure: Int32?
        input.withUnsafeBufferPointer { source in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = UInt32(source.count)
            while true {
                let status = output.withUnsafeMutableBufferPointer { target -> Int32 in
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(target.count)
                    return CZlib.deflate(&stream, finish ? Z_FINISH : Z_NO_FLUSH)
                }
                out += output[0..<(output.count - Int(stream.avail_out))]
                if status == Z_STREAM_END { return }
                guard status == Z_OK || status == Z_BUF_ERROR else { failure = status; return }
                // More output is owed while zlib filled the buffer; otherwise the input is used.
                if stream.avail_out == 0 { continue }
                if !finish { return }
            }
        }
        if let failure { throw .deflateFailed(failure) }
    }
}

/// Why an archive could not be written. The partial archive is removed.
package enum ZipWriterError: Error, Sendable, Hashable, CustomStringConvertible {
    case cannotWrite(path: String, errno: Int32)
    case cannotRead(path: String, errno: Int32)
    /// An entry of 4 GiB or more: this writer has no ZIP64.
    case entryTooLarge(name: String, byteCount: UInt64)
    /// The archive would pass 4 GiB: this writer has no ZIP64.
    case archiveTooLarge
    /// More than 65 535 entries: this writer has no ZIP64.
    case tooManyEntries
    /// An empty name, or one longer than 65 535 bytes.
    case invalidName(String)
    /// zlib refused (its status code): a fault of this build.
    case deflateFailed(Int32)

    package var description: String {
        switch self {
        case let .cannotWrite(path, code): "cannot write \(path): \(SystemError.text(code))"
        case let .cannotRead(path, code): "cannot read \(path): \(SystemError.text(code))"
        case let .entryTooLarge(name, count):
            "\(name) is \(count) bytes: a file of 4 GiB or more needs ZIP64, which this archive does not write"
        case .archiveTooLarge: "the archive would pass 4 GiB, which needs ZIP64, which this archive does not write"
        case .tooManyEntries: "more than 65 535 files need ZIP64, which this archive does not write"
        case let .invalidName(name): "\"\(name)\" cannot name a file in an archive"
        case let .deflateFailed(status): "zlib could not compress (status \(status))"
        }
    }
}
