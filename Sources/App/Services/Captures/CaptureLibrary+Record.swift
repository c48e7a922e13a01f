import Foundation
import Shared

/// The seed's `CaptureRecord` is `Shared`'s: the record `PcapRecordReader` reads back, the same
/// type the writer's tests read, so the library adds only what the packet screen asks of it.
extension CaptureRecord {
    /// What the packet measured before the snaplen cut it (`orig_len`).
    package var originalLength: UInt32 { header.origLen }
    /// The bytes the file kept (`incl_len`).
    package var capturedLength: UInt32 { UInt32(bytes.count) }
    /// The snaplen cut the packet: the file holds only its first `capturedLength` bytes.
    package var isTruncated: Bool { originalLength > capturedLength }
    /// The record's stamp; the library reads only its own microsecond files.
    package var timestampMicroseconds: UInt64 { UInt64(header.tsSec) * 1_000_000 + UInt64(header.tsFraction) }
}

extension CaptureLibrary {
    /// The record at `location`: three short reads (global header, record header, `incl_len`
    /// bytes bounded by the file's snaplen before anything is allocated), never a scan.
    /// `notFound` when the file is gone (deleted: the connection stays, its bytes do not);
    /// `recordUnreadable` when the file is there and the record in it is not (corrupt, cut short
    /// by a dying writer, or not readable at all).
    package func record(at location: CaptureLocation) throws(CaptureLibraryError) -> CaptureRecord {
        let directory = try directory()
        do {
            return try PcapRecordReader(directory: directory).read(location)
        } catch {
            switch error {
            case let .fileNotFound(sequence): throw .notFound(sequence)
            case let .unreadable(path, _) where path == directory.path: throw .containerUnavailable(error.description)
            default: throw .recordUnreadable(error.description)
            }
        }
    }

    /// The records at `locations`, each as `record(at:)` would answer, with the directory listed
    /// once and one call for all: what an export of a whole flow reads.
    package func records(at locations: [CaptureLocation]) throws(CaptureLibraryError) -> [Result<CaptureRecord, CaptureLibraryError>] {
        let directory = try directory()
        let files: [UInt32: URL]
        do { files = try CaptureDirectory.files(in: directory) } catch {
            throw .containerUnavailable(error.description)
        }
        return locations.map { location in
            guard let url = files[location.fileSequence] else { return .failure(.notFound(location.fileSequence)) }
            do throws(PcapReadError) {
                return .success(try PcapRecordReader.read(recordAt: location.recordOffset, in: url))
            } catch {
                if case let .fileNotFound(sequence) = error { return .failure(.notFound(sequence)) }
                return .failure(.recordUnreadable(error.description))
            }
        }
    }
}
