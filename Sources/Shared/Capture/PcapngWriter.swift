import Foundation

/// Streams a pcapng file (`PcapngFormat`'s blocks) to a sink and hashes exactly what the sink was
/// given, as it is given: the evidence bundle's capture is hashed while written, never read back.
///
/// One section, one interface (id 0), then Enhanced Packet Blocks, each with its direction in
/// `epb_flags` and an optional `opt_comment`. Timestamps are microseconds (`if_tsresol` 6): the
/// packets come from classic pcap records, which hold microseconds, so nanoseconds would only
/// write three zeros a packet.
///
/// Blocks are gathered in a buffer and handed to the sink in pieces of about `flushThreshold`
/// bytes (one write per piece, not per packet); `finish()` hands over the rest.
package struct PcapngWriter: ~Copyable {
    /// Takes the next bytes of the file; a throw stops the writer.
    package typealias Sink = ([UInt8]) throws -> Void

    /// What was written, once finished.
    package struct Summary: Sendable, Hashable {
        package let byteCount: UInt64
        package let packetCount: Int
        package let sha256: [UInt8]
    }

    package static let flushThreshold = 1 << 16

    private let sink: Sink
    private var buffer: [UInt8] = []
    private var hasher = SHA256Hasher()
    private var packetCount = 0
    private var failure: PcapngWriterError?

    /// Starts the file: the Section Header Block (naming `application` when given) and the
    /// Interface Description Block of `linkType` and `snaplen` (0: no limit).
    package init(linkType: UInt16 = UInt16(PcapFormat.linkTypeRaw), snaplen: UInt32, application: String? = nil,
                sink: @escaping Sink) throws(PcapngWriterError) {
        self.sink = sink
        buffer.reserveCapacity(Self.flushThreshold + 1024)
        do throws(PcapngFormat.FormatError) {
            try PcapngFormat.appendSectionHeader(application: application, to: &buffer)
        } catch {
            throw .format(error)
        }
        PcapngFormat.appendInterfaceDescription(linkType: linkType, snaplen: snaplen, to: &buffer)
    }

    /// A writer appending to `handle` (which the caller opened and closes).
    package init(linkType: UInt16 = UInt16(PcapFormat.linkTypeRaw), snaplen: UInt32, application: String? = nil,
                handle: FileHandle) throws(PcapngWriterError) {
        try self.init(linkType: linkType, snaplen: snaplen, application: application) { try handle.write(contentsOf: $0) }
    }

    /// One packet: `data` as captured, `originalLength` on the wire, stamped `microsecondsSince1970`.
    /// A packet or comment too long for pcapng is refused whole and the writer carries on; a sink
    /// failure ends it (every later call throws it again).
    package mutating func append(_ data: some Collection<UInt8>, originalLength: Int, microsecondsSince1970: UInt64,
                                direction: Direction, comment: String? = nil) throws(PcapngWriterError) {
        if let failure { throw failure }
        var options: [PcapngFormat.Option] = comment.map { [.comment($0)] } ?? []
        options.append(.flags(direction))
        do throws(PcapngFormat.FormatError) {
            try PcapngFormat.appendEnhancedPacket(data, originalLength: originalLength, microsecondsSince1970: microsecondsSince1970,
                                                  options: options, to: &buffer)
        } catch {
            throw .format(error)
        }
        packetCount += 1
        if buffer.count >= Self.flushThreshold { try flush() }
    }

    /// Hands over what is left and ends the writer with what it wrote.
    package consuming func finish() throws(PcapngWriterError) -> Summary {
        try flush()
        let byteCount = hasher.byteCount
        let count = packetCount
        return Summary(byteCount: byteCount, packetCount: count, sha256: hasher.finalize())
    }

    private mutating func flush() throws(PcapngWriterError) {
        if let failure { throw failure }
        guard !buffer.isEmpty else { return }
        do {
            try sink(buffer)
        } catch {
            let failure = PcapngWriterError.writeFailed(String(describing: error))
            self.failure = failure
            throw failure
        }
        hasher.update(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Why a pcapng file could not be written.
package enum PcapngWriterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A packet or an option too long for pcapng's lengths: that packet is left out, the file goes
    /// on; the caller counts it.
    case format(PcapngFormat.FormatError)
    /// The sink refused bytes (disk full, file gone): the file is incomplete and the caller
    /// removes it.
    case writeFailed(String)

    package var description: String {
        switch self {
        case let .format(error): error.description
        case let .writeFailed(reason): "the pcapng file could not be written: \(reason)"
        }
    }
}
