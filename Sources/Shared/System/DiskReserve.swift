#if canImport(Glibc)
import Glibc
#endif
import CSQLite

/// Room the recording leaves free on the data directory's disk, as journald's `keep_free` does:
/// the capture stops while `captureBytes` are still free and the history while `historyBytes`
/// are, so the history can still end its session, and the next run can still open it, on a disk
/// the capture filled. Past the reserve a write fails as a full disk (ENOSPC, SQLITE_FULL).
package enum DiskReserve {
    package static let captureBytes: UInt64 = 1 << 20
    package static let historyBytes: UInt64 = 512 << 10

    /// Whether writing `needed` more bytes leaves `reserve` free. Pure.
    package static func leaves(_ reserve: UInt64, available: UInt64, needed: UInt64) -> Bool {
        available >= needed &+ reserve
    }

    /// `leaves` for the file system holding `descriptor`. When it cannot be asked the answer is
    /// yes: the write itself then says what is wrong.
    package static func leaves(_ reserve: UInt64, needed: Int, descriptor: Int32) -> Bool {
        var status = statvfs()
        guard fstatvfs(descriptor, &status) == 0 else { return true }
        return leaves(reserve, available: UInt64(status.f_bavail) &* UInt64(status.f_frsize), needed: UInt64(needed))
    }

    /// Appends `buffer` (whole records) to the file at `descriptor`, whose size with it is
    /// `sizeAfter`, in one write(2) — unless it would eat into `reserve`, which fails as a full
    /// disk without being tried. A write that fails is cut back to the file as it was, so the file
    /// stays whole records (shrinking needs no space; if it fails too, the reader meets a cut
    /// record, its error). The buffer is emptied either way; the errno when it failed.
    static func writeWhole(_ buffer: inout [UInt8], to descriptor: Int32, sizeAfter: UInt64,
                                  reserve: UInt64 = captureBytes) -> Int32? {
        let failure: Int32? = if leaves(reserve, needed: buffer.count, descriptor: descriptor) {
            buffer.withUnsafeBytes { FileDescriptor.writeAll(descriptor, $0) }
        } else {
            ENOSPC
        }
        let sizeBefore = sizeAfter - UInt64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
        if failure != nil { _ = ftruncate(descriptor, off_t(sizeBefore)) }
        return failure
    }

    /// The same for the file system holding `path`.
    package static func leaves(_ reserve: UInt64, needed: Int, path: String) -> Bool {
        var status = statvfs()
        guard statvfs(path, &status) == 0 else { return true }
        return leaves(reserve, available: UInt64(status.f_bavail) &* UInt64(status.f_frsize), needed: UInt64(needed))
    }
}

extension StoreError {
    /// The history's disk is down to its reserve: a full disk, as SQLite would say it.
    package static func reserveReached(path: String) -> StoreError {
        .diskFull(path: path, SQLiteError(code: SQLITE_FULL,
                                          message: "fewer than \(DiskReserve.historyBytes >> 10) KiB free, kept for ending the session"))
    }
}
