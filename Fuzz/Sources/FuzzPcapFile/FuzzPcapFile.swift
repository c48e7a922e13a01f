#if canImport(Glibc)
import Glibc
#endif
import Foundation
import FuzzSupport
import Shared

/// One input: a whole capture file, written to a temporary file (the readers map or pread a path)
/// and read to its end or to a typed error by `PcapFileReader` (classic pcap or pcapng, every link
/// layer), every record also read back alone by `PcapRecordReader` at the offset the file reader
/// gave. Checked:
/// - pcap: records come in order, each right behind the one before, inside the file, `incl_len`
///   bytes each and within the snaplen; a read with no error ends exactly at the end of the file,
///   and a corrupt record is the one after the last handed out;
/// - pcapng: records come in order, each at a block past the one before, its bytes inside its
///   block and the file, never more than the original length; a corrupt block comes after the
///   last record handed out; each record's link layer unwraps within its bytes;
/// - the record reader, for a file of ours (`.ours`), reads every record the same and refuses the
///   corrupt one too; for any other file it refuses the global header.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPcapFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput(data, size).rest
    writeScratchFile(bytes)
    let reader: PcapFileReader
    do {
        reader = try PcapFileReader(path: scratchPath, accepting: .anyLinkLayer)
    } catch {
        if case .format = error { return 0 }
        fatalError("a capture of \(bytes.count) bytes could not be opened: \(error)")
    }
    invariant(reader.fileSize == bytes.count, "file size \(reader.fileSize), wrote \(bytes.count)")
    guard case let .pcap(header) = reader.format else { return checkPcapng(reader, bytes) }
    let ours = bytes.count >= PcapFormat.globalHeaderLength
        && (try? PcapFormat.GlobalHeader(parsing: UnsafeRawBufferPointer(rebasing: bytes[..<PcapFormat.globalHeaderLength]),
                                         accepting: .ours)) != nil
    var next = PcapFormat.globalHeaderLength
    var count = 0
    var failure: PcapFileReadError<Never>?
    do throws(PcapFileReadError<Never>) {
        try reader.forEachRecord { (record: PcapFileReader.Record) throws(Never) in
            invariant(record.index == count && record.offset == next, "record \(record.index) at \(record.offset), expected \(count) at \(next)")
            let end = record.offset + PcapFormat.recordHeaderLength + record.bytes.count
            invariant(end <= bytes.count && record.bytes.count <= Int(header.snaplen)
                      && record.originalLength >= record.bytes.count, "record \(record.index) outside the file or snaplen")
            invariant(record.bytes.elementsEqual(bytes[(end - record.bytes.count)..<end]), "record \(record.index)'s bytes are not the file's")
            if ours {
                let alone = Result { () throws(PcapReadError) in try PcapRecordReader.read(recordAt: UInt64(record.offset), in: scratchURL) }
                let read = try? alone.get()
                invariant(read.map { max(Int($0.header.inclLen), Int($0.header.origLen)) } == record.originalLength
                          && read?.bytes.elementsEqual(record.bytes) == true,
                          "record \(record.index) reads back alone as \(alone)")
            }
            next = end
            count += 1
        }
    } catch {
        failure = error
    }
    switch failure {
    case nil:
        invariant(next == bytes.count, "the read stopped at \(next) of \(bytes.count) with no error")
    case let .corrupt(_, recordIndex):
        invariant(recordIndex == count && next < bytes.count, "corrupt record \(recordIndex) after \(count) records")
        if ours {
            let alone = Result { () throws(PcapReadError) in try PcapRecordReader.read(recordAt: UInt64(next), in: scratchURL) }
            guard case .failure = alone else { fatalError("the corrupt record at \(next) reads alone as \(alone)") }
        }
    }
    if !ours, bytes.count > PcapFormat.recordHeaderLength + PcapFormat.globalHeaderLength {
        let alone = Result { () throws(PcapReadError) in
            try PcapRecordReader.read(recordAt: UInt64(PcapFormat.globalHeaderLength), in: scratchURL)
        }
        guard case .failure(.format) = alone else { fatalError("a file not of ours reads as \(alone)") }
    }
    return 0
}

private func checkPcapng(_ reader: PcapFileReader, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    var count = 0
    var lastOffset = -1
    do throws(PcapFileReadError<Never>) {
        try reader.forEachRecord { (record: PcapFileReader.Record) throws(Never) in
            invariant(record.index == count && record.offset > lastOffset, "record \(record.index) at \(record.offset) after \(lastOffset)")
            invariant(record.bytes.count <= record.originalLength, "record \(record.index) holds more than its original length")
            // The data of an enhanced or obsolete packet block starts 28 bytes in, a simple one's 12.
            let inFile = [28, 12].contains { start in
                let from = record.offset + start
                return from + record.bytes.count <= bytes.count && bytes[from..<(from + record.bytes.count)].elementsEqual(record.bytes)
            }
            invariant(inFile, "record \(record.index)'s bytes are not the file's at its block")
            if let datagram = record.linkLayer?.datagram(in: record.bytes) {
                invariant(datagram.count <= record.bytes.count, "record \(record.index) unwraps beyond its bytes")
            }
            lastOffset = record.offset
            count += 1
        }
    } catch {
        if case let .corrupt(_, recordIndex) = error {
            invariant(recordIndex == count, "corrupt record \(recordIndex) after \(count) records")
        }
    }
    return 0
}

/// One file per process, rewritten for every input: libFuzzer's workers are processes.
private let scratchPath = "\(NSTemporaryDirectory())/tunnelvision-fuzz-pcap-\(getpid()).pcap"
private let scratchURL = URL(fileURLWithPath: scratchPath)
/// Removes the scratch file when libFuzzer exits normally (a crash keeps it: the input is in
/// Fuzz/crashes/ anyway).
private let removeAtExit: Void = { atexit { unlink(scratchPath) } }()

private func writeScratchFile(_ bytes: UnsafeRawBufferPointer) {
    _ = removeAtExit
    let descriptor = open(scratchPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    invariant(descriptor >= 0, "cannot write \(scratchPath): errno \(errno)")
    defer { close(descriptor) }
    var written = 0
    while written < bytes.count {
        let result = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
        invariant(result > 0, "cannot write \(scratchPath): errno \(errno)")
        written += result
    }
}
