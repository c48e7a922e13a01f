#if canImport(Glibc)
import Glibc
#endif
import CTunnelVision

/// Reads a whole capture front to back — classic pcap in either byte order and either timestamp
/// precision, or pcapng with any number of sections and interfaces — captures made elsewhere
/// included. The file is mapped, so records are handed out as views with no copy.
///
/// `@unchecked Sendable`: nothing in it changes after `init`, and the mapping is read-only
/// (`PROT_READ`) until `deinit`, so several threads may read one file through it at once.
package final class PcapFileReader: @unchecked Sendable {
    package let path: String
    package let format: CaptureFileFormat
    package let fileSize: Int
    private let acceptance: PcapFormat.Acceptance
    private let mapping: UnsafeRawBufferPointer

    /// One record as a view into the mapping, valid only inside the `forEachRecord` body.
    package struct Record {
        /// 0-based position in the file, counting packets only.
        package let index: Int
        /// Offset in the file of the record header (pcap) or of the packet's block (pcapng).
        package let offset: Int
        /// The bytes captured (at most the snaplen).
        package let bytes: UnsafeRawBufferPointer
        /// The packet's length on the wire (≥ `bytes.count`).
        package let originalLength: Int
        /// 0 for a pcapng Simple Packet Block, which carries no time.
        package let nanosecondsSince1970: Int64
        /// The interface's (pcapng) or the file's link type.
        package let linkType: UInt32
        /// How to unwrap the record to its IP datagram; nil when its link type is not read.
        package let linkLayer: LinkLayer?
        /// The pcapng interface id (0 in a pcap file).
        package let interface: Int
    }

    package init(path: String, accepting acceptance: PcapFormat.Acceptance = .anyRawIP) throws(PcapReadError) {
        self.path = path
        self.acceptance = acceptance
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: path, errno: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(path: path, errno: errno) }
        // A capture is mapped, so it must be a regular file (not a pipe or a device).
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notARegularFile(path: path) }
        fileSize = Int(status.st_size)
        if fileSize == 0 {
            throw .format(.shortHeader(expected: PcapFormat.globalHeaderLength, actual: 0))
        }
        guard let base = mmap(nil, fileSize, PROT_READ, MAP_PRIVATE, descriptor, 0), base != MAP_FAILED else {
            throw .unreadable(path: path, errno: errno)
        }
        madvise(base, fileSize, MADV_SEQUENTIAL)
        mapping = UnsafeRawBufferPointer(start: base, count: fileSize)
        do {
            format = try Self.format(of: mapping, accepting: acceptance)
        } catch {
            munmap(base, fileSize)
            throw .format(error)
        }
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: mapping.baseAddress), fileSize)
    }

    /// pcapng when the file opens with a Section Header Block (and more than our own files are
    /// accepted), refused when none of the interfaces it describes first is read; classic otherwise.
    static func format(of file: UnsafeRawBufferPointer, accepting acceptance: PcapFormat.Acceptance)
        throws(PcapFormat.FormatError) -> CaptureFileFormat {
        let opensWithSection = file.count >= 4
            && file.loadUnaligned(as: UInt32.self).littleEndianToHost == PcapngBlock.sectionHeader
        guard opensWithSection, acceptance != .ours else {
            return .pcap(try PcapFormat.GlobalHeader(parsing: file, accepting: acceptance))
        }
        var walker = PcapngWalker()
        var offset = 0
        // Damage here is left for the read to report at its record.
        while offset < file.count, walker.sections <= 1, let step = try? walker.step(in: file, at: offset) {
            if case .packet = step.block { break }
            offset = step.next
        }
        let interfaces = walker.interfaces
        guard interfaces.isEmpty || interfaces.contains(where: { acceptance.accepts(linkType: $0.linkType) }) else {
            throw .unreadablePcapngInterfaces(interfaces.map(\.linkType))
        }
        return .pcapng(leadingInterfaces: interfaces)
    }

    /// Bytes of the file touched ahead of the record being handed out. A record's header is a
    /// cache miss of its own, and the next one's address is known only once it is read: touching
    /// every line a window ahead sends those misses out together (about a tenth of `analyze`).
    static let readAhead = 64 << 10

    /// How far behind the record being handed out the file's pages stay mapped in, and the step
    /// in which they are let go. Pages read stay resident otherwise, so a capture's whole size
    /// would count in the reader's memory; several readers of one mapping keep within this of
    /// each other (one further behind maps its pages in again from the page cache).
    static let keptBehind = 4 << 20
    static let releaseStep = 1 << 20

    /// The window of the mapping kept resident around the record being read.
    private struct ResidentWindow {
        var touchedTo: Int
        var releasedTo = 0

        mutating func advance(to offset: Int, in mapping: UnsafeRawBufferPointer) {
            if offset - releasedTo >= keptBehind + releaseStep {
                // Read-only and never written, so the pages come back from the file if touched again.
                let end = (offset - keptBehind) & ~(Int(getpagesize()) - 1)
                madvise(UnsafeMutableRawPointer(mutating: mapping.baseAddress! + releasedTo), end - releasedTo, MADV_DONTNEED)
                releasedTo = end
            }
            if offset + readAhead > touchedTo, touchedTo < mapping.count {
                let end = min(mapping.count, touchedTo + readAhead)
                ctv_touch_lines(mapping.baseAddress! + touchedTo, end - touchedTo)
                touchedTo = end
            }
        }
    }

    /// Calls `body` with each record in order. Stops at the first corrupt record and throws its
    /// error after the good records before it were handed out; `body` may throw to stop early.
    package func forEachRecord<E: Error>(_ body: (Record) throws(E) -> Void) throws(PcapFileReadError<E>) {
        switch format {
        case let .pcap(header): try forEachClassicRecord(header, body)
        case .pcapng: try forEachPcapngRecord(body)
        }
    }

    private func forEachClassicRecord<E: Error>(_ header: PcapFormat.GlobalHeader,
                                                _ body: (Record) throws(E) -> Void) throws(PcapFileReadError<E>) {
        var offset = PcapFormat.globalHeaderLength
        var index = 0
        let headerLength = PcapFormat.recordHeaderLength
        let swapped = header.isByteSwapped
        let nanoseconds = header.hasNanosecondTimestamps
        let linkLayer = LinkLayer(linkType: header.linkType)
        var window = ResidentWindow(touchedTo: offset)
        while offset < fileSize {
            window.advance(to: offset, in: mapping)
            guard fileSize - offset >= headerLength else {
                throw .corrupt(.recordCutShort(offset: UInt64(offset), expected: UInt64(headerLength),
                                               available: UInt64(fileSize - offset)), recordIndex: index)
            }
            let recordHeader: PcapFormat.RecordHeader
            do {
                recordHeader = try PcapFormat.RecordHeader(
                    parsing: UnsafeRawBufferPointer(rebasing: mapping[offset..<(offset + headerLength)]), byteSwapped: swapped)
            } catch { throw .corrupt(.format(error), recordIndex: index) }
            let included = Int(recordHeader.inclLen)
            guard recordHeader.inclLen <= header.snaplen else {
                throw .corrupt(.inclLenExceedsSnaplen(offset: UInt64(offset), inclLen: recordHeader.inclLen,
                                                      snaplen: header.snaplen), recordIndex: index)
            }
            let dataStart = offset + headerLength
            guard fileSize - dataStart >= included else {
                throw .corrupt(.recordCutShort(offset: UInt64(offset), expected: UInt64(headerLength + included),
                                               available: UInt64(fileSize - offset)), recordIndex: index)
            }
            let record = Record(index: index, offset: offset,
                                bytes: UnsafeRawBufferPointer(rebasing: mapping[dataStart..<(dataStart + included)]),
                                originalLength: max(included, Int(recordHeader.origLen)),
                                nanosecondsSince1970: recordHeader.nanosecondsSince1970(nanosecondTimestamps: nanoseconds),
                                linkType: header.linkType, linkLayer: linkLayer, interface: 0)
            do { try body(record) } catch { throw .stopped(error) }
            offset = dataStart + included
            index += 1
        }
    }

    private func forEachPcapngRecord<E: Error>(_ body: (Record) throws(E) -> Void) throws(PcapFileReadError<E>) {
        var walker = PcapngWalker()
        var offset = 0
        var index = 0
        var window = ResidentWindow(touchedTo: offset)
        // Per interface of the current section, how its records unwrap (nil: not read).
        var linkLayers: [LinkLayer?] = []
        var section = 0
        while offset < fileSize {
            window.advance(to: offset, in: mapping)
            let step: (block: PcapngWalker.Block, next: Int)
            do { step = try walker.step(in: mapping, at: offset) } catch {
                throw .corrupt(.damagedBlock(offset: UInt64(offset), error), recordIndex: index)
            }
            if case let .packet(packet) = step.block {
                if section != walker.sections || linkLayers.count != walker.interfaces.count {
                    section = walker.sections
                    linkLayers = walker.interfaces.map { acceptance.accepts(linkType: $0.linkType) ? LinkLayer(linkType: $0.linkType) : nil }
                }
                let interface = walker.interfaces[packet.interface]
                let record = Record(index: index, offset: offset,
                                    bytes: UnsafeRawBufferPointer(rebasing: mapping[packet.dataOffset..<(packet.dataOffset + packet.capturedLength)]),
                                    originalLength: packet.originalLength,
                                    nanosecondsSince1970: packet.ticks.map(interface.nanosecondsSince1970(ticks:)) ?? 0,
                                    linkType: interface.linkType, linkLayer: linkLayers[packet.interface],
                                    interface: packet.interface)
                do { try body(record) } catch { throw .stopped(error) }
                index += 1
            }
            offset = step.next
        }
    }
}

/// How a front-to-back read ended early: a corrupt record, or the caller's own error.
package enum PcapFileReadError<Stop: Error>: Error {
    case corrupt(PcapReadError, recordIndex: Int)
    case stopped(Stop)
}
