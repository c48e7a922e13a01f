#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Writes `capture.pcapng` (audit.md § Evidence bundle): the packets of the bundle's flows read
/// back from the rotated `.pcap` files in capture order — files by sequence, records by offset —
/// each commented `flow=<id>` or `flow=<id> findings=F1,F3` and flagged with its direction,
/// through `PcapngWriter`, which hashes the file while it is written.
///
/// The caller reads the history, this reads the captures: `init` takes the session's packet counts
/// (`FlowStore.packetCounts(inAuditSession:)`) and the capture directory's files, refuses a packet
/// of a flow the bundle does not list before creating anything, opens each source file it will
/// read (its snaplen sets the interface's) and writes the section and interface; then the caller
/// hands each of `filesToRead` its packets in turn (`capturedPackets(inAuditSession:fileSequence:)`,
/// exactly `expectedPackets(inFile:)` of them) and `finish()` ends the file. An empty capture is
/// still a section and an interface. Until `finish()` succeeds the file is the writer's: any
/// failure, or a writer let go unfinished, removes it.
///
/// Source files are ours (LINKTYPE_RAW), but what a file says is what is read: any raw-IP capture
/// in either byte order and precision is carried over as it is; a file of another link type, or no
/// capture at all, is unreadable and its packets counted as such.
package final class EvidenceCaptureWriter {
    package let destination: URL
    /// The readable source files, ascending: the caller hands each its packets, in this order.
    package let filesToRead: [UInt32]
    private let session: AuditSession
    private let comments: [Int64: String]
    private let expected: [UInt32: Int]
    private var sources: [UInt32: PcapRecordWindow]
    private var pcapng: PcapngWriter?
    private var descriptor: Int32
    private var finished = false
    private var nextFile = 0

    private let snaplen: UInt32
    private let notCaptured: Int
    private let missingFiles: [EvidenceCapture.MissingFile]
    private let unreadableFiles: [EvidenceCapture.UnreadableFile]
    private var readFiles: [EvidenceCapture.ReadFile] = []
    private var written = 0
    private var recordUnreadable = 0
    private var beforeStart = 0
    private var afterEnd = 0
    private var flowsWritten = Set<Int64>()

    /// The name the section header gives as the exporting application.
    package static let application = "TunnelVision \(ProductVersion.current)"

    /// `findingIDs` has every flow of the bundle as a key (`EvidenceBundle.findingIDs`);
    /// `captureFiles` is the capture directory's listing (`CaptureDirectory.files(in:)`).
    package init(destination: URL, captureFiles: [UInt32: URL], session: AuditSession, findingIDs: [Int64: [String]],
                packetCounts: [SessionPacketCount]) throws(EvidenceCaptureError) {
        if let stranger = packetCounts.first(where: { findingIDs[$0.flowID] == nil }) { throw .flowNotInBundle(id: stranger.flowID) }
        self.destination = destination
        self.session = session
        var comments: [Int64: String] = [:]
        comments.reserveCapacity(findingIDs.count)
        for (flow, ids) in findingIDs { comments[flow] = Self.comment(flow: flow, findingIDs: ids) }
        self.comments = comments
        var perFile: [UInt32: Int] = [:]
        var notCaptured = 0
        for count in packetCounts {
            if let file = count.fileSequence { perFile[file, default: 0] += count.packetCount } else { notCaptured += count.packetCount }
        }
        self.notCaptured = notCaptured
        var readable: [UInt32] = [], sources: [UInt32: PcapRecordWindow] = [:]
        var missing: [EvidenceCapture.MissingFile] = [], unreadable: [EvidenceCapture.UnreadableFile] = []
        var snaplen: UInt32 = 0
        for sequence in perFile.keys.sorted() {
            let packets = perFile[sequence] ?? 0
            guard let url = captureFiles[sequence] else {
                missing.append(EvidenceCapture.MissingFile(sequence: sequence, packets: packets))
                continue
            }
            do throws(PcapReadError) {
                let source = try PcapRecordWindow(url: url)
                sources[sequence] = source
                readable.append(sequence)
                snaplen = max(snaplen, source.header.snaplen)
            } catch {
                if case .fileNotFound = error {
                    missing.append(EvidenceCapture.MissingFile(sequence: sequence, packets: packets))
                } else {
                    unreadable.append(EvidenceCapture.UnreadableFile(sequence: sequence, name: url.lastPathComponent, packets: packets,
                                                                     reason: Self.reason(error)))
                }
            }
        }
        expected = perFile
        filesToRead = readable
        self.sources = sources
        missingFiles = missing
        unreadableFiles = unreadable
        self.snaplen = snaplen

        let opened = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard opened >= 0 else { throw .destinationUnavailable("\(destination.path): \(SystemError.text(errno))") }
        descriptor = opened
        // open(2) filters the mode through the umask; evidence is the owner's alone.
        guard fchmod(opened, 0o600) == 0 else { throw .destinationUnavailable("\(destination.path): \(SystemError.text(errno))") }
        do throws(PcapngWriterError) {
            pcapng = try PcapngWriter(snaplen: snaplen, application: Self.application) { [opened] bytes in
                if let failure = bytes.withUnsafeBytes({ FileDescriptor.writeAll(opened, $0) }) {
                    throw DirectoryError(path: destination.path, errno: failure)
                }
            }
        } catch {
            throw .writeFailed(error.description)
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if !finished { unlink(destination.path) }
    }

    /// `flow=12`, or `flow=12 findings=F1,F3`.
    package static func comment(flow: Int64, findingIDs: [String]) -> String {
        findingIDs.isEmpty ? "flow=\(flow)" : "flow=\(flow) findings=" + findingIDs.joined(separator: ",")
    }

    /// How many of the session's packets the counts put in `file`: what the caller hands over for it.
    package func expectedPackets(inFile file: UInt32) -> Int { expected[file] ?? 0 }

    /// Writes the packets whose records are in `fileSequence`, the next of `filesToRead`, by
    /// offset. A packet of a flow the bundle does not list refuses the whole file before any of its
    /// packets is written (and the capture is then removed); a record that cannot be read, or whose
    /// original length is not the stored one, is counted and left out.
    package func write(fileSequence: UInt32, packets: [SessionCapturedPacket]) throws(EvidenceCaptureError) {
        precondition(nextFile < filesToRead.count && filesToRead[nextFile] == fileSequence,
                     "files are written once each, in the order of filesToRead")
        precondition(packets.count == expectedPackets(inFile: fileSequence), "the counts say \(expectedPackets(inFile: fileSequence)) packets")
        nextFile += 1
        if let stranger = packets.first(where: { comments[$0.flowID] == nil }) { throw .flowNotInBundle(id: stranger.flowID) }
        guard let source = sources.removeValue(forKey: fileSequence) else { return }
        let ordered = packets.indices.dropFirst().allSatisfy { packets[$0 - 1].recordOffset <= packets[$0].recordOffset }
            ? packets : packets.sorted { $0.recordOffset < $1.recordOffset }
        let startedAt = session.startedAt, endedAt = session.endedAt
        let nanosecondStamps = source.header.hasNanosecondTimestamps
        var fileWritten = 0, fileUnreadable = 0
        for packet in ordered {
            let record: (header: PcapFormat.RecordHeader, bytes: UnsafeRawBufferPointer)
            do throws(PcapReadError) { record = try source.record(at: packet.recordOffset) } catch {
                fileUnreadable += 1
                continue
            }
            guard record.header.origLen == packet.length else {
                fileUnreadable += 1
                continue
            }
            let microseconds = UInt64(max(0, record.header.nanosecondsSince1970(nanosecondTimestamps: nanosecondStamps) / 1_000))
            do throws(PcapngWriterError) {
                try pcapng!.append(record.bytes, originalLength: Int(record.header.origLen), microsecondsSince1970: microseconds,
                                   direction: packet.direction, comment: comments[packet.flowID])
            } catch {
                guard case .format = error else { throw .writeFailed(error.description) }
                // Too long for pcapng's fields: that packet alone is left out.
                fileUnreadable += 1
                continue
            }
            fileWritten += 1
            flowsWritten.insert(packet.flowID)
            if packet.date < startedAt { beforeStart += 1 } else if let endedAt, packet.date > endedAt { afterEnd += 1 }
        }
        written += fileWritten
        recordUnreadable += fileUnreadable
        readFiles.append(EvidenceCapture.ReadFile(sequence: fileSequence, name: source.url.lastPathComponent,
                                                  packetsWritten: fileWritten, recordsUnreadable: fileUnreadable))
    }

    /// Ends the file (every file of `filesToRead` written) and closes it, synced unless `sync` is
    /// false (a file copied elsewhere at once, whose copy is synced): what it holds and lacks.
    package func finish(sync: Bool = true) throws(EvidenceCaptureError) -> EvidenceCapture {
        precondition(nextFile == filesToRead.count, "every file of filesToRead is written before the capture ends")
        let summary: PcapngWriter.Summary
        do throws(PcapngWriterError) {
            summary = try pcapng.take()!.finish()
        } catch {
            throw .writeFailed(error.description)
        }
        guard !sync || fsync(descriptor) == 0 else { throw .writeFailed("\(destination.path): \(SystemError.text(errno))") }
        let closed = close(descriptor)
        descriptor = -1
        // A network or full file system may report a failed write only at the close.
        guard closed == 0 else { throw .writeFailed("\(destination.path): \(SystemError.text(errno))") }
        finished = true
        let flows = comments.keys.filter { !flowsWritten.contains($0) }.sorted()
        return EvidenceCapture(
            byteCount: summary.byteCount, sha256: summary.sha256, snaplen: snaplen, written: written, notCaptured: notCaptured,
            captureFileMissing: missingFiles.map(\.packets).reduce(0, +),
            recordUnreadable: recordUnreadable + unreadableFiles.map(\.packets).reduce(0, +),
            writtenBeforeStart: beforeStart, writtenAfterEnd: afterEnd, readFiles: readFiles, missingFiles: missingFiles,
            unreadableFiles: unreadableFiles, flowCount: comments.count, flowsWithoutPacketsWritten: flows)
    }

    /// `EvidenceCapture.UnreadableFile.reason` of a file that could not be opened as a capture.
    static func reason(_ error: PcapReadError) -> String {
        switch error {
        case .notARegularFile: "notARegularFile"
        case .format(.unsupportedLinkType), .format(.unreadablePcapngInterfaces): "notRawIP"
        case .format: "notAClassicPcap"
        default: "cannotBeRead"
        }
    }
}
