import Foundation

/// The decrypted-content files in a directory, found by name (`PlaintextFileName`).
package enum PlaintextDirectory {
    /// Every `.tvpt` file in `directory` by its sequence. A directory that does not exist holds
    /// none; one that cannot be read throws its `errno`.
    package static func files(in directory: URL) throws(DirectoryError) -> [UInt32: URL] {
        try CaptureDirectory.files(in: directory, sequence: PlaintextFileName.sequence(in:))
    }

    /// Each `.tvpt` file's size and last write, oldest sequence first.
    package static func fileInfos(in directory: URL) throws(DirectoryError) -> [PlaintextFileInfo] {
        try CaptureDirectory.fileInfos(of: files(in: directory))
    }
}

/// A decrypted-content file as listed: the same facts as a capture file's.
package typealias PlaintextFileInfo = CaptureFileInfo
