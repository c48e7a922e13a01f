#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The capture files in a directory, found by name (`CaptureFileName`).
package enum CaptureDirectory {
    /// Every capture file in `directory` by its sequence. A directory that does not exist holds
    /// none; one that cannot be read throws its `errno`.
    package static func files(in directory: URL) throws(DirectoryError) -> [UInt32: URL] {
        try files(in: directory, sequence: CaptureFileName.sequence(in:))
    }

    /// The files in `directory` whose name `sequence` recognises, by that sequence.
    static func files(in directory: URL, sequence: (String) -> UInt32?) throws(DirectoryError) -> [UInt32: URL] {
        guard let stream = opendir(directory.path) else {
            if errno == ENOENT { return [:] }
            throw DirectoryError(path: directory.path, errno: errno)
        }
        defer { closedir(stream) }
        var files: [UInt32: URL] = [:]
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if let sequence = sequence(name) {
                files[sequence] = directory.appendingPathComponent(name)
            }
        }
        return files
    }
}
