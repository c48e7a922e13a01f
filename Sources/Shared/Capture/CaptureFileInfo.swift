#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// One capture file as the directory holds it: its sequence (the one its stored packets carry),
/// where it is, what it weighs now and when the file system says it was last written.
package struct CaptureFileInfo: Sendable, Equatable, Identifiable {
    package var id: UInt32 { sequence }
    package let sequence: UInt32
    package let url: URL
    package let byteCount: UInt64
    /// From the file system (its modification time: the last record written), not from the name.
    package let createdAt: Date?

    package init(sequence: UInt32, url: URL, byteCount: UInt64, createdAt: Date?) {
        self.sequence = sequence
        self.url = url
        self.byteCount = byteCount
        self.createdAt = createdAt
    }
}

extension CaptureDirectory {
    /// Every capture file in `directory`, in sequence order, with its size and date; files whose
    /// names are not ours are left out, and an absent directory holds none. A link is never
    /// followed (its size would be another file's): it is left out like a foreign file.
    package static func fileInfos(in directory: URL) throws(DirectoryError) -> [CaptureFileInfo] {
        try fileInfos(of: files(in: directory))
    }

    /// The size and last write of each file named (a link or a file gone since is left out).
    static func fileInfos(of files: [UInt32: URL]) throws(DirectoryError) -> [CaptureFileInfo] {
        var infos: [CaptureFileInfo] = []
        for (sequence, url) in files.sorted(by: { $0.key < $1.key }) {
            var status = stat()
            guard lstat(url.path, &status) == 0 else {
                if errno == ENOENT { continue }   // deleted between the listing and now
                throw DirectoryError(path: url.path, errno: errno)
            }
            guard status.st_mode & S_IFMT == S_IFREG else { continue }
            let modified = Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
            infos.append(CaptureFileInfo(sequence: sequence, url: url, byteCount: UInt64(max(0, status.st_size)),
                                         createdAt: Date(timeIntervalSince1970: modified)))
        }
        return infos
    }
}
