/// What SQLite's 100-byte header says about the file's own size (fileformat2.html §1.3), checked
/// against the bytes on disk before anything opens the file for writing: a copy cut short or a
/// file truncated by a full disk shows here, and would otherwise be read as zeros past the end —
/// and written over. Pure: the header's bytes and the file's size in, the damage (if any) out.
struct DatabaseHeader: Equatable {
    static let byteCount = 100

    /// Bytes per page: a power of two from 512 to 65 536 (stored as 1 for 65 536).
    let pageSize: Int
    /// The header's page count, when SQLite would trust it: nonzero and written by the same
    /// transaction as the change counter (§1.3.7, "in-header database size").
    let pageCount: Int?

    /// Reads the header; nil when the size field is not a valid page size.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= Self.byteCount else { return nil }
        let rawSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let size = rawSize == 1 ? 65_536 : rawSize
        guard size >= 512, size <= 65_536, size & (size - 1) == 0 else { return nil }
        pageSize = size
        func word(_ offset: Int) -> UInt32 { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        let count = word(28)
        pageCount = count != 0 && word(24) == word(92) ? Int(count) : nil
    }

    /// Why a file with these header bytes and `fileSize` bytes is not whole; nil when it may be.
    /// `walHasContent`: a checkpoint may be part-way, so the header's page count is not held
    /// against the size (the WAL's own checksums guard that state).
    static func damage(header bytes: [UInt8], fileSize: Int64, walHasContent: Bool) -> String? {
        // A new history whose every page is still in the WAL: nothing in the main file yet.
        if fileSize == 0 && walHasContent { return nil }
        guard fileSize >= Int64(byteCount), bytes.count >= byteCount else {
            return "truncated: \(fileSize) bytes, shorter than SQLite's \(byteCount)-byte header"
        }
        guard let header = DatabaseHeader(bytes) else { return "its header names no valid page size" }
        let size = Int64(header.pageSize)
        guard fileSize % size == 0 else {
            return "truncated: \(fileSize) bytes is not a whole number of \(size)-byte pages"
        }
        if !walHasContent, let count = header.pageCount, fileSize < Int64(count) * size {
            return "truncated: its header counts \(count) pages of \(size) bytes, the file holds \(fileSize / size)"
        }
        return nil
    }
}
