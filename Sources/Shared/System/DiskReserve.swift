#if canImport(Glibc)
import Glibc
#endif
import CSQLite

/// Room the recording leaves free on the data directory's disk, as journald's `keep_free` does:
/// the capture stops while `captureBytes` are still free and the history while `historyBytes`
/// are, so the history can still end its session, and the next run can still open it, on a disk
/// the capture filled. Past the reserve a write fails as a full disk (ENOSPC, SQLITE_FULL).
public enum DiskReserve {
    public static let captureBytes: UInt64 = 1 << 20
    public static let historyBytes: UInt64 = 512 << 10

    /// Whether writing `needed` more bytes leaves `reserve` free. Pure.
    public static func leaves(_ reserve: UInt64, available: UInt64, needed: UInt64) -> Bool {
        available >= needed &+ reserve
    }

    /// `leaves` for the file system holding `descriptor`. When it cannot be asked the answer is
    /// yes: the write itself then says what is wrong.
    public static func leaves(_ reserve: UInt64, needed: Int, descriptor: Int32) -> Bool {
        var status = statvfs()
        guard fstatvfs(descriptor, &status) == 0 else { return true }
        return leaves(reserve, available: UInt64(status.f_bavail) &* UInt64(status.f_frsize), needed: UInt64(needed))
    }

    /// The same for the file system holding `path`.
    public static func leaves(_ reserve: UInt64, needed: Int, path: String) -> Bool {
        var status = statvfs()
        guard statvfs(path, &status) == 0 else { return true }
        return leaves(reserve, available: UInt64(status.f_bavail) &* UInt64(status.f_frsize), needed: UInt64(needed))
    }
}

extension StoreError {
    /// The history's disk is down to its reserve: a full disk, as SQLite would say it.
    public static func reserveReached(path: String) -> StoreError {
        .diskFull(path: path, SQLiteError(code: SQLITE_FULL,
                                          message: "fewer than \(DiskReserve.historyBytes >> 10) KiB free, kept for ending the session"))
    }
}
