#if canImport(Glibc)
import Glibc
#endif
import Foundation
import App
import Shared

/// `tunnelvision flow ID [--data-dir D] [--json] [--packets N] [--packet N] [--pcap FILE |
/// --pcapng FILE] [--force]`: one connection of the history — the inspector, one packet's detail,
/// or its packets exported to a capture. Parses and renders; every decision is `App`'s.
enum FlowCommand {
    enum Action: Equatable {
        case inspect(packets: Int?)
        case packet(Int)
        case export(FlowCaptureFormat, path: String, force: Bool)
    }

    struct Request: Equatable {
        var flowID: Int64
        var dataDirectory: String?
        var json: Bool
        var action: Action
    }

    static let help = """
    tunnelvision flow ID [--data-dir D] [--json] [--packets N]
    tunnelvision flow ID --packet N [--data-dir D] [--json]
    tunnelvision flow ID --pcap FILE | --pcapng FILE [--force] [--data-dir D] [--json]

    One connection of the history, by the id 'tunnelvision flows' shows (the history is read, never
    created). Without options: its two ends (this device's first), protocol, first to last packet,
    received and sent, whether it was encrypted; its name and where it came from; what the client
    offered, what the server answered and its certificates; then its packets in time order, each
    titled by what it did — opened (SYN), accepted (SYN ACK), data, delivery confirmed (a bare
    ACK), finished sending (FIN), cut off (RST, whatever else is set) — with its flags, its time
    since the first packet, its direction and size. At most 500 are listed (--packets N for
    another number); the footer says how many there are.

    --packet N     packet N of the list (from 1): its facts, its bytes as the capture kept them (hex
                   and ASCII, 16 a line), its headers field by field, and for DNS on port 53 what
                   was looked up and answered. Bytes are shown only when the capture's record there
                   is this packet; otherwise why not: the capture was deleted, capture was off,
                   the record is unreadable or is another packet (exit status 1).
    --pcap FILE    write the connection's captured packets to FILE, classic pcap of raw IP;
    --pcapng FILE  or pcapng, each packet's comment "flow=ID direction=sent|received" and its
                   direction flag set. Packets without bytes are counted and reported. FILE is
                   created owner-only (0600); an existing FILE is kept unless --force; a failure
                   leaves no file.
    --json         one JSON document. Inspector: {"id", "name", "nameSource", "otherNames",
                   "protocol", "ipVersion", "local", "remote", "ends", "firstPacket",
                   "lastPacket" (UTC), "durationSeconds", "bytesReceived", "bytesSent",
                   "encryption" (plaintext|encrypted|inspected|notInspectable), "streamOpening",
                   "quicVersion", "clientOffer", "serverAnswer", "certificates" (as analyze's),
                   "storedPackets", "shownPackets", "footer", "packets": [{"number", "seconds",
                   "at", "direction", "length", "title", "flags", "capture" {"file", "offset"}}]}.
                   Packet: {"flow", "number", "title", "seconds", "at", "direction", "length",
                   "flags", "capture", "reason" (null, captureDeleted, captureOff,
                   captureStopped, unreadable, mismatch), "note", "retry", "capturedLength",
                   "originalLength", "truncated", "bytes" (hex of the captured datagram), "dump"
                   (the lines a screen draws: offset, hex, ASCII, of the first \(PacketBytesPresentation.screenByteLimit) bytes),
                   "bytesNotDrawn", "headers": [{"layer", "name", "value"}], "dns" {"kind", "lookedUp",
                   "recordType", "addresses", "names", "undecodedRecords", "noAnswer"
                   (noSuchName|noRecordsOfThatType|failed) | "unreadable" (keptTooLittle|notDNS)}}.
                   Export: {"file", "format", "written", "captureDeleted", "notCaptured",
                   "unreadable"}.

    Exit status 1 when the history cannot be read, the id is unknown, the packet is out of range
    or its bytes cannot be shown, or nothing could be exported; 2 on a usage error.
    """

    static func parse(_ arguments: [String], json: Bool) throws(Invocation.UsageError) -> Request {
        var rest = arguments
        var dataDirectory: String?
        var packets: Int?
        var packet: Int?
        var export: (FlowCaptureFormat, String)?
        var force = false
        func value(_ option: String) throws(Invocation.UsageError) -> String {
            guard let index = rest.firstIndex(of: option) else { throw Invocation.UsageError(message: "flow: \(option)?") }
            guard index + 1 < rest.count else { throw Invocation.UsageError(message: "flow: \(option) needs a value") }
            defer { rest.removeSubrange(index...index + 1) }
            return rest[index + 1]
        }
        func count(_ option: String) throws(Invocation.UsageError) -> Int {
            let text = try value(option)
            guard let number = Int(text), number >= 1 else {
                throw Invocation.UsageError(message: "flow: \(option) needs a whole number from 1, not \(text)")
            }
            return number
        }
        if rest.contains("--data-dir") { dataDirectory = try value("--data-dir") }
        if rest.contains("--packets") { packets = try count("--packets") }
        if rest.contains("--packet") { packet = try count("--packet") }
        for (option, format) in [("--pcap", FlowCaptureFormat.pcap), ("--pcapng", .pcapng)] where rest.contains(option) {
            if export != nil { throw Invocation.UsageError(message: "flow: --pcap or --pcapng, not both") }
            export = (format, try value(option))
        }
        if let index = rest.firstIndex(of: "--force") {
            rest.remove(at: index)
            force = true
        }
        if let unknown = rest.first(where: { $0.hasPrefix("-") }) {
            throw Invocation.UsageError(message: "flow: unknown option \(unknown)")
        }
        guard rest.count == 1, let id = Int64(rest[0]) else {
            throw Invocation.UsageError(message: rest.isEmpty ? "flow: which connection? (tunnelvision flow ID; 'tunnelvision flows' lists them)"
                                                              : "flow: one connection id, a number (not \(rest.joined(separator: " ")))")
        }
        let chosen = [packets != nil, packet != nil, export != nil].filter { $0 }.count
        if chosen > 1 { throw Invocation.UsageError(message: "flow: --packets, --packet and --pcap/--pcapng go one at a time") }
        if force, export == nil { throw Invocation.UsageError(message: "flow: --force only goes with --pcap or --pcapng") }
        let action: Action = if let packet { .packet(packet) }
            else if let export { .export(export.0, path: export.1, force: force) }
            else { .inspect(packets: packets) }
        return Request(flowID: id, dataDirectory: dataDirectory, json: json, action: action)
    }

    static func run(_ request: Request) async -> Int32 {
        let store: FlowStore
        do { store = try HistoryAccess.openStore(dataDirectory: request.dataDirectory) } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
        let status = await run(request, store: store)
        await store.close()
        return status
    }

    private static func run(_ request: Request, store: FlowStore) async -> Int32 {
        let library = CaptureLibrary(dataDirectory: HistoryAccess.dataDirectory(override: request.dataDirectory))
        let inspection = FlowInspection(store: store, library: library)
        do throws(InspectorError) {
            switch request.action {
            case let .inspect(packets):
                let inspector = try await inspection.inspector(flowID: request.flowID, limit: packets)
                print(request.json ? inspector.json() : inspector.text())
                return 0
            case let .packet(number):
                let detail = try await inspection.packet(flowID: request.flowID, number: number)
                print(request.json ? detail.json(flowID: request.flowID) : detail.text(flowID: request.flowID))
                guard detail.record == nil, let note = detail.note else { return 0 }
                printError("tunnelvision: packet \(number) of connection \(request.flowID): \(note)")
                return 1
            case let .export(format, path, force):
                let url = URL(fileURLWithPath: path)
                let summary = try await FlowCaptureExport(inspection: inspection)
                    .export(flowID: request.flowID, to: url, format: format, force: force)
                if request.json {
                    var out = JSONWriter()
                    out.beginObject()
                    out.string("file", url.path)
                    out.string("format", format.rawValue)
                    out.number("written", summary.written)
                    out.number("captureDeleted", summary.captureDeleted)
                    out.number("notCaptured", summary.notCaptured)
                    out.number("unreadable", summary.unreadable)
                    out.endObject()
                    print(String(decoding: out.writer.bytes, as: UTF8.self))
                } else {
                    printError("tunnelvision: \(url.path): \(summary.text)")
                }
                return 0
            }
        } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
    }
}
