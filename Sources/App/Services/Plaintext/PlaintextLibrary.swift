#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// Reads decrypted chunks back from the `.tvpt` files the tunnel wrote. Stateless and read-only,
/// in a directory resolved on every call (`LibraryDirectory`). Entered through the index row, never
/// a bare location: the record found must be the row's conversation (`stream`) with the row's two
/// lengths, or it is `recordMismatch`. The timestamp is deliberately not compared (the row's is the monotonic
/// instant dated by the store, the record's the absolute one: equal, but not bit for bit).
package actor PlaintextLibrary: DirectoryLibrary {
    private let location: LibraryDirectory

    package init(location: LibraryDirectory) {
        self.location = location
    }

    package init(dataDirectory: URL) {
        self.init(directory: DataDirectoryLayout.plaintext(in: dataDirectory))
    }

    /// The chunk `row` indexes: three short reads (global header, record header, `stored_length`
    /// bytes bounded by the file's `max_record_bytes` and by its size before anything is allocated).
    package func chunk(for row: StoredPlaintextChunk) throws(PlaintextLibraryError) -> DecryptedChunk {
        var files = try OpenFiles(try directory())
        defer { files.close() }
        return try chunk(for: row, in: &files)
    }

    private nonisolated func directory() throws(PlaintextLibraryError) -> URL {
        try location.url(unavailable: PlaintextLibraryError.containerUnavailable)
    }

    /// The directory's files as one reading found them, each opened once and its global header read
    /// once: a flow's thousands of records cost a listing, not one each.
    struct OpenFiles {
        let urls: [UInt32: URL]
        private var open: [UInt32: (descriptor: Int32, global: PlaintextFormat.GlobalHeader)] = [:]

        init(_ directory: URL) throws(PlaintextLibraryError) {
            do { urls = try PlaintextDirectory.files(in: directory) } catch { throw .containerUnavailable(error.description) }
        }

        mutating func file(_ sequence: UInt32) throws(PlaintextLibraryError) -> (descriptor: Int32, global: PlaintextFormat.GlobalHeader, name: String) {
            guard let url = urls[sequence] else { throw .notFound(sequence) }
            if let known = open[sequence] { return (known.descriptor, known.global, url.lastPathComponent) }
            let descriptor = Glibc.open(url.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else {
                if errno == ENOENT { throw .notFound(sequence) }
                throw .recordUnreadable("\(url.lastPathComponent): \(SystemError.text(openingWithoutFollowing: errno))")
            }
            let name = url.lastPathComponent
            do {
                let globalBytes = try PlaintextLibrary.read(descriptor, at: 0, count: PlaintextFormat.globalHeaderLength, name: name)
                let global = try PlaintextLibrary.decoded(name) { () throws(PlaintextFormat.FormatError) in
                    try PlaintextFormat.GlobalHeader(parsing: globalBytes)
                }
                open[sequence] = (descriptor, global)
                return (descriptor, global, name)
            } catch {
                Glibc.close(descriptor)
                throw error
            }
        }

        mutating func close() {
            for file in open.values { Glibc.close(file.descriptor) }
            open = [:]
        }
    }

    private nonisolated func chunk(for row: StoredPlaintextChunk, in files: inout OpenFiles) throws(PlaintextLibraryError) -> DecryptedChunk {
        let (descriptor, global, name) = try files.file(row.location.fileSequence)
        let offset = row.location.recordOffset
        guard offset >= UInt64(PlaintextFormat.globalHeaderLength) else {
            throw .recordUnreadable("\(name): \(PlaintextFormat.FormatError.notARecordStart(offset: offset))")
        }
        let headerBytes = try Self.read(descriptor, at: offset, count: PlaintextFormat.recordHeaderLength, name: name)
        let header = try Self.decoded(name) { () throws(PlaintextFormat.FormatError) in
            try PlaintextFormat.RecordHeader(parsing: headerBytes, offset: offset)
        }
        guard header.storedLength <= global.maxRecordBytes else {
            throw .recordUnreadable("\(name) at \(offset) claims \(header.storedLength) bytes; its file allows \(global.maxRecordBytes)")
        }
        // The file's own header is as untrusted as the rest: the record must also fit in what is on
        // disk before its length is allocated (a header claiming 4 GiB records allocated 4 GiB).
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .recordUnreadable("\(name): \(SystemError.text(errno))") }
        let end = offset + UInt64(PlaintextFormat.recordHeaderLength) + UInt64(header.storedLength)
        guard end <= UInt64(max(0, status.st_size)) else {
            throw .recordUnreadable("\(name) ends at \(status.st_size); the record at \(offset) claims \(header.storedLength) bytes up to \(end)")
        }
        guard header.stream == row.stream else {
            throw .recordMismatch("\(name) at \(offset) is conversation \(header.stream), not \(row.stream)")
        }
        guard header.storedLength == row.storedLength, header.originalLength == row.originalLength,
              header.direction == row.direction else {
            throw .recordMismatch("\(name) at \(offset) holds \(header.storedLength) of \(header.originalLength) bytes "
                                  + "\(header.direction); the history says \(row.storedLength) of \(row.originalLength) \(row.direction)")
        }
        let bytes = try Self.read(descriptor, at: offset + UInt64(PlaintextFormat.recordHeaderLength),
                                  count: Int(header.storedLength), name: name)
        return DecryptedChunk(direction: header.direction, timestamp: Date(timeIntervalSince1970: Double(header.timestamp) / 1e9),
                              bytes: bytes, originalLength: Int(header.originalLength))
    }

    fileprivate static func decoded<Value>(_ name: String, _ body: () throws(PlaintextFormat.FormatError) -> Value) throws(PlaintextLibraryError) -> Value {
        do { return try body() } catch { throw .recordUnreadable("\(name): \(error)") }
    }

    /// Exactly `count` bytes at `offset`; fewer on disk is a record cut short.
    fileprivate static func read(_ descriptor: Int32, at offset: UInt64, count: Int, name: String) throws(PlaintextLibraryError) -> Data {
        var bytes = Data(count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .recordUnreadable("\(name): \(SystemError.text(errno))")
            }
            if got == 0 {
                throw .recordUnreadable("\(name) ends at \(offset + UInt64(done)); the record there needs \(count - done) more bytes")
            }
            done += got
        }
        return bytes
    }
}

extension PlaintextLibrary {
    /// Each row's chunk, as `chunk(for:)` answers it: one unreadable record does not hide the rest.
    /// Nonisolated, since a reading touches no state of the library (the directory is resolved and
    /// its files opened per call): a synchronous caller reads without a task — the fuzz harness,
    /// whose per-input task was still being freed when libFuzzer looked for leaks.
    package nonisolated func chunks(for rows: [StoredPlaintextChunk]) -> [Result<DecryptedChunk, PlaintextLibraryError>] {
        let files: Result<OpenFiles, PlaintextLibraryError> = Result { () throws(PlaintextLibraryError) in try OpenFiles(try directory()) }
        guard case var .success(open) = files else { return rows.map { _ in files.map { _ in fatalError("unreachable") } } }
        defer { open.close() }
        return rows.map { row in Result { () throws(PlaintextLibraryError) in try chunk(for: row, in: &open) } }
    }
}

extension PlaintextLibrary {
    /// The chunks of `rows` whose files are still there, in order. A file swept away is how
    /// decrypted content expires (it goes sooner than the history), so it is skipped; any other
    /// refusal is an error, never an empty answer.
    package func readable(_ rows: [StoredPlaintextChunk]) throws(PlaintextLibraryError) -> [DecryptedChunk] {
        var read: [DecryptedChunk] = []
        var files = try OpenFiles(try directory())
        defer { files.close() }
        for row in rows {
            do throws(PlaintextLibraryError) {
                read.append(try chunk(for: row, in: &files))
            } catch .notFound {
                continue
            }
        }
        return read
    }
}
