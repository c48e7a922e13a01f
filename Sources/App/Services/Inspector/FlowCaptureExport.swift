#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// The two files a flow's packets can be exported to.
package enum FlowCaptureFormat: String, Sendable, Hashable {
    /// Classic pcap, LINKTYPE_RAW: what every tool reads.
    case pcap
    /// pcapng, each packet commented with its flow and direction and flagged inbound/outbound.
    case pcapng
}

/// What an export wrote, and what it could not, counted apart — never skipped silently.
package struct FlowCaptureExportSummary: Sendable, Equatable {
    package var written = 0
    /// Their capture file was deleted.
    package var captureDeleted = 0
    /// Never captured (capture off, or stopped).
    package var notCaptured = 0
    /// The record there could not be read, or is another packet.
    package var unreadable = 0

    package var missing: Int { captureDeleted + notCaptured + unreadable }

    /// "12 packets written; 3 not in it: 2 whose capture was deleted, 1 never captured".
    package var text: String {
        var parts: [String] = []
        if captureDeleted > 0 { parts.append("\(captureDeleted) whose capture was deleted") }
        if notCaptured > 0 { parts.append("\(notCaptured) never captured") }
        if unreadable > 0 { parts.append("\(unreadable) whose record could not be read") }
        return "\(written) packets written" + (parts.isEmpty ? "" : "; \(missing) not in it: " + parts.joined(separator: ", "))
    }
}

/// Why an export wrote nothing. No file is left behind in any of these cases.
package enum FlowCaptureExportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The destination exists and `--force` was not given.
    case exists(String)
    /// Creating, writing, syncing or renaming failed (`errno`).
    case cannotWrite(path: String, errno: Int32)
    /// Not one packet of the flow has readable bytes: what happened to them.
    case nothingToWrite(FlowCaptureExportSummary)
    case format(String)
    /// The captures folder could not be read.
    case cannotRead(String)

    package var description: String {
        switch self {
        case let .exists(path): "\(path) exists: choose another name, or add --force to replace it"
        case let .cannotWrite(path, code): "cannot write \(path): \(SystemError.text(code))"
        case let .nothingToWrite(summary):
            "no packet of this connection has its bytes in a capture (\(summary.text)); nothing was written"
        case let .format(reason): "cannot encode the capture: \(reason)"
        case let .cannotRead(reason): "\(reason); nothing was written"
        }
    }
}

/// Writes a flow's captured packets to a standalone capture: into a new temporary file beside
/// the destination (owner-only, never following a link), synced, then moved into place — by a
/// link that refuses an existing name, or with `force` a rename over it. Any failure removes the
/// temporary file, so a failed export leaves nothing.
package struct FlowCaptureExport: Sendable {
    package let inspection: FlowInspection

    package init(inspection: FlowInspection) {
        self.inspection = inspection
    }

    /// The `snaplen` written in the new file's header: no record of ours is longer.
    static let snaplen = CaptureDetail.fullPayload.snaplen

    /// A flow's packets as a capture file's bytes, with the count of what they hold and lack.
    package struct Capture: Sendable, Equatable {
        package let bytes: [UInt8]
        package let summary: FlowCaptureExportSummary
    }

    package func export(flowID: Int64, to destination: URL, format: FlowCaptureFormat,
                       force: Bool) async throws(InspectorError) -> FlowCaptureExportSummary {
        if !force, PathStatus.of(destination.path) != nil { throw .export(.exists(destination.path)) }
        let capture = try await capture(flowID: flowID, format: format)
        do throws(FlowCaptureExportError) {
            try Self.place(capture.bytes, at: destination, force: force)
        } catch {
            throw .export(error)
        }
        return capture.summary
    }

    /// The bytes `export` writes, in memory (the web app's download).
    package func capture(flowID: Int64, format: FlowCaptureFormat) async throws(InspectorError) -> Capture {
        let (flow, packets) = try await inspection.allPackets(flowID: flowID)
        var summary = FlowCaptureExportSummary()
        var records: [(StoredPacket, CaptureRecord)] = []
        let captured = packets.filter { $0.capture != nil }
        summary.notCaptured = packets.count - captured.count
        let read: [Result<CaptureRecord, CaptureLibraryError>]
        do { read = try await inspection.library.records(at: captured.compactMap(\.capture)) } catch {
            throw .export(.cannotRead(error.description))
        }
        for (packet, result) in zip(captured, read) {
            switch result {
            case let .success(record):
                guard record.originalLength == packet.length,
                      !PacketBytesPresentation.readsAsOtherConnection(record, flowKey: flow.stored.key) else {
                    summary.unreadable += 1
                    continue
                }
                records.append((packet, record))
            case .failure(.notFound): summary.captureDeleted += 1
            case .failure: summary.unreadable += 1
            }
        }
        summary.written = records.count
        guard !records.isEmpty else { throw .export(.nothingToWrite(summary)) }
        var bytes: [UInt8] = []
        do throws(PcapngFormat.FormatError) {
            try Self.encode(records, flowID: flowID, format: format, into: &bytes)
        } catch {
            throw .export(.format(error.description))
        }
        return Capture(bytes: bytes, summary: summary)
    }

    static func encode(_ records: [(StoredPacket, CaptureRecord)], flowID: Int64, format: FlowCaptureFormat,
                       into out: inout [UInt8]) throws(PcapngFormat.FormatError) {
        switch format {
        case .pcap:
            var header = [UInt8](repeating: 0, count: PcapFormat.globalHeaderLength)
            header.withUnsafeMutableBytes { PcapFormat.GlobalHeader(snaplen: snaplen).emit(into: $0) }
            out += header
            for (_, record) in records {
                var recordHeader = [UInt8](repeating: 0, count: PcapFormat.recordHeaderLength)
                recordHeader.withUnsafeMutableBytes { record.header.emit(into: $0) }
                out += recordHeader
                out += record.bytes
            }
        case .pcapng:
            try PcapngFormat.appendSectionHeader(application: "tunnelvision \(ProductVersion.current)", to: &out)
            PcapngFormat.appendInterfaceDescription(snaplen: snaplen, to: &out)
            for (packet, record) in records {
                let direction = packet.direction == .outbound ? "sent" : "received"
                try PcapngFormat.appendEnhancedPacket(record.bytes, originalLength: Int(record.originalLength),
                                                      microsecondsSince1970: record.timestampMicroseconds,
                                                      options: [.comment("flow=\(flowID) direction=\(direction)"),
                                                                .flags(packet.direction)], to: &out)
            }
        }
    }

    /// `bytes` at `destination`, all or nothing.
    static func place(_ bytes: [UInt8], at destination: URL, force: Bool) throws(FlowCaptureExportError) {
        let directory = destination.deletingLastPathComponent().path
        var temporary = ""
        var descriptor: Int32 = -1
        for _ in 0..<8 {
            temporary = "\(directory)/.\(destination.lastPathComponent).\(String(UInt64.random(in: 0...UInt64.max), radix: 16)).tmp"
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw .cannotWrite(path: destination.path, errno: errno) }
        var failure: Int32?
        if fchmod(descriptor, 0o600) != 0 { failure = errno }
        if failure == nil { failure = bytes.withUnsafeBytes { FileDescriptor.writeAll(descriptor, $0) } }
        if failure == nil, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if failure == nil {
            if force {
                if rename(temporary, destination.path) != 0 { failure = errno }
            } else if link(temporary, destination.path) != 0 {
                let code = errno
                unlink(temporary)
                throw code == EEXIST ? .exists(destination.path) : .cannotWrite(path: destination.path, errno: code)
            }
        }
        unlink(temporary)   // after a link, the destination keeps the file; after a rename, a no-op
        if let failure { throw .cannotWrite(path: destination.path, errno: failure) }
    }
}
