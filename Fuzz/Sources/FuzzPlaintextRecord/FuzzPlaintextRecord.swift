#if canImport(Glibc)
import Glibc
#endif
import App
import Foundation
import FuzzSupport
import Shared

/// One input: two control bytes (an offset to probe) then a whole `.tvpt` file, written where the
/// app reads decrypted content. Its records are walked with the format's own parsers from the
/// global header on, and each one found is read back through `PlaintextLibrary` the way the app
/// does (an index row naming it). Checked:
/// - a record the walk accepts reads back as exactly its bytes, direction and lengths; the same
///   row with another conversation is refused as a mismatch, never answered;
/// - where the walk stops (a corrupt header, a record claiming more than the file allows or than
///   remains), a row naming that offset is refused, never read;
/// - a row at any offset either is refused or answers bytes that are the file's, within its
///   `max_record_bytes`; nothing traps, and no length is allocated before it is bounded.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPlaintextRecord(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let probe = UInt64(input.byte()) << 8 | UInt64(input.byte())
    let bytes = input.restData
    writeScratchFile(bytes)
    let global = bytes.count >= PlaintextFormat.globalHeaderLength
        ? try? PlaintextFormat.GlobalHeader(parsing: bytes.prefix(PlaintextFormat.globalHeaderLength)) : nil
    var offset = UInt64(PlaintextFormat.globalHeaderLength)
    if let global {
        while let header = record(at: offset, in: bytes), header.storedLength <= global.maxRecordBytes,
              offset + UInt64(PlaintextFormat.recordHeaderLength) + UInt64(header.storedLength) <= UInt64(bytes.count) {
            let start = Int(offset) + PlaintextFormat.recordHeaderLength
            let own = Data(bytes[start..<(start + Int(header.storedLength))])
            let read = readBack(row(header, at: offset))
            invariant((try? read.get()).map { $0.bytes == own && $0.direction == header.direction
                && $0.originalLength == Int(header.originalLength) } == true, "the record at \(offset) reads back as \(read)")
            var other = header
            other.stream &+= 1
            guard case .failure(.recordMismatch) = readBack(row(other, at: offset)) else {
                fatalError("the record at \(offset) was answered for another conversation")
            }
            offset += UInt64(PlaintextFormat.recordHeaderLength) + UInt64(header.storedLength)
        }
        if let header = record(at: offset, in: bytes) {
            guard case .failure = readBack(row(header, at: offset)) else { fatalError("the record where the walk stopped (\(offset)) was read") }
        }
    }
    let anywhere = readBack(StoredPlaintextChunk(id: 1, flowID: 1, timestamp: Date(timeIntervalSince1970: 0), direction: .outbound,
                                                 stream: 0, location: PlaintextLocation(fileSequence: 1, recordOffset: probe),
                                                 storedLength: 0, originalLength: 0))
    if case .success(let chunk) = anywhere {
        invariant(global != nil && chunk.bytes.isEmpty && probe >= UInt64(PlaintextFormat.globalHeaderLength),
                  "a row at \(probe) was answered from a file whose header does not read, or with bytes it did not claim")
    }
    return 0
}

private func record(at offset: UInt64, in bytes: Data) -> PlaintextFormat.RecordHeader? {
    guard offset + UInt64(PlaintextFormat.recordHeaderLength) <= UInt64(bytes.count) else { return nil }
    let start = Int(offset)
    return try? PlaintextFormat.RecordHeader(parsing: Data(bytes[start..<(start + PlaintextFormat.recordHeaderLength)]), offset: offset)
}

private func row(_ header: PlaintextFormat.RecordHeader, at offset: UInt64) -> StoredPlaintextChunk {
    StoredPlaintextChunk(id: 1, flowID: 1, timestamp: Date(timeIntervalSince1970: 0), direction: header.direction,
                         stream: header.stream, location: PlaintextLocation(fileSequence: 1, recordOffset: offset),
                         storedLength: header.storedLength, originalLength: header.originalLength)
}

/// Read synchronously (`chunks(for:)` is nonisolated): a task per input was sometimes still being
/// freed on another thread when libFuzzer counted this input's allocations, and reported a leak.
private func readBack(_ row: StoredPlaintextChunk) -> Result<DecryptedChunk, PlaintextLibraryError> {
    library.chunks(for: [row])[0]
}

private let scratchDirectory = "\(NSTemporaryDirectory())/tunnelvision-fuzz-tvpt-\(getpid())"
private let scratchPath = scratchDirectory + "/" + PlaintextFileName.make(sequence: 1, nanosecondsSince1970: 0)
private let library = PlaintextLibrary(directory: URL(fileURLWithPath: scratchDirectory))
/// Removes the scratch file and folder when libFuzzer exits normally.
private let removeAtExit: Void = {
    mkdir(scratchDirectory, 0o700)
    atexit { unlink(scratchPath); rmdir(scratchDirectory) }
}()

private func writeScratchFile(_ bytes: Data) {
    _ = removeAtExit
    let descriptor = open(scratchPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    invariant(descriptor >= 0, "cannot write \(scratchPath): errno \(errno)")
    defer { close(descriptor) }
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    invariant(bytes.isEmpty || written == bytes.count, "cannot write \(scratchPath): errno \(errno)")
}
