#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// Why the capture library could not do what it was asked.
package enum CaptureLibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The directory could not be found or read.
    case containerUnavailable(String)
    case deletionFailed(String)
    /// No capture file with this sequence: deleted (by a person or retention), or never written.
    case notFound(UInt32)
    /// The file is there and the record in it cannot be read.
    case recordUnreadable(String)

    package var description: String {
        switch self {
        case let .containerUnavailable(reason): "the captures cannot be read: \(reason)"
        case let .deletionFailed(reason): "the capture could not be deleted: \(reason)"
        case let .notFound(sequence): "capture \(sequence) is not in the captures folder (it was deleted)"
        case let .recordUnreadable(reason): "the capture record cannot be read: \(reason)"
        }
    }
}

/// The capture files the tunnel wrote: listed in sequence order, deleted one by one, and read one
/// record at a time (`record(at:)`), in a directory resolved on every call (`LibraryDirectory`).
package actor CaptureLibrary: DirectoryLibrary {
    private let location: LibraryDirectory

    package init(location: LibraryDirectory) {
        self.location = location
    }

    /// The data directory's captures.
    package init(dataDirectory: URL) {
        self.init(directory: DataDirectoryLayout.captures(in: dataDirectory))
    }

    func directory() throws(CaptureLibraryError) -> URL {
        try location.url(unavailable: CaptureLibraryError.containerUnavailable)
    }

    /// Every capture file, oldest sequence first; an absent directory holds none.
    package func files() throws(CaptureLibraryError) -> [CaptureFileInfo] {
        let directory = try directory()
        do {
            return try CaptureDirectory.fileInfos(in: directory)
        } catch {
            throw .containerUnavailable(error.description)
        }
    }

    /// The file with `sequence`, or `notFound`.
    package func file(sequence: UInt32) throws(CaptureLibraryError) -> CaptureFileInfo {
        guard let file = try files().first(where: { $0.sequence == sequence }) else { throw .notFound(sequence) }
        return file
    }

    /// Deletes exactly the file with `sequence`. The history keeps its rows: their packets then
    /// read as "capture deleted", and the writer never reuses the number.
    package func delete(sequence: UInt32) throws(CaptureLibraryError) {
        let file = try file(sequence: sequence)
        guard unlink(file.url.path) == 0 else {
            if errno == ENOENT { throw .notFound(sequence) }
            throw .deletionFailed("\(file.url.path): \(SystemError.text(errno))")
        }
    }
}
