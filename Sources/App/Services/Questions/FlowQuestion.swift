import Foundation
import Shared

/// One connection's questions (`tunnelvision flow ID`, `GET /api/flows/ID…`): its inspector, one
/// packet's detail, its packets as a capture.
package struct FlowQuestion: Sendable, Equatable {
    package enum Action: Sendable, Equatable {
        case inspect(packets: Int?)
        case packet(Int)
        /// Written to a file (the command's `--pcap FILE`).
        case export(FlowCaptureFormat, path: String, force: Bool)
    }

    package var flowID: Int64
    package var dataDirectory: String?
    package var action: Action

    package init(flowID: Int64, dataDirectory: String? = nil, action: Action = .inspect(packets: nil)) {
        self.flowID = flowID
        self.dataDirectory = dataDirectory
        self.action = action
    }

    /// Reads the arguments of `flow` (`--json` aside).
    package static func parse(_ arguments: [String]) throws(QuestionFailure) -> FlowQuestion {
        var rest = arguments
        var dataDirectory: String?
        var packets: Int?
        var packet: Int?
        var export: (FlowCaptureFormat, String)?
        var force = false
        func value(_ option: String) throws(QuestionFailure) -> String {
            guard let index = rest.firstIndex(of: option) else { throw .usage("flow: \(option)?") }
            guard index + 1 < rest.count else { throw .usage("flow: \(option) needs a value") }
            defer { rest.removeSubrange(index...index + 1) }
            return rest[index + 1]
        }
        func count(_ option: String) throws(QuestionFailure) -> Int {
            let text = try value(option)
            guard let number = Int(text), number >= 1 else { throw .usage("flow: \(option) needs a whole number from 1, not \(text)") }
            return number
        }
        if rest.contains("--data-dir") { dataDirectory = try value("--data-dir") }
        if rest.contains("--packets") { packets = try count("--packets") }
        if rest.contains("--packet") { packet = try count("--packet") }
        for (option, format) in [("--pcap", FlowCaptureFormat.pcap), ("--pcapng", .pcapng)] where rest.contains(option) {
            if export != nil { throw .usage("flow: --pcap or --pcapng, not both") }
            export = (format, try value(option))
        }
        if let index = rest.firstIndex(of: "--force") {
            rest.remove(at: index)
            force = true
        }
        if let unknown = rest.first(where: { $0.hasPrefix("-") }) { throw .usage("flow: unknown option \(unknown)") }
        guard rest.count == 1, let id = Int64(rest[0]) else {
            throw .usage(rest.isEmpty ? "flow: which connection? (tunnelvision flow ID; 'tunnelvision flows' lists them)"
                                      : "flow: one connection id, a number (not \(rest.joined(separator: " ")))")
        }
        let chosen = [packets != nil, packet != nil, export != nil].filter { $0 }.count
        if chosen > 1 { throw .usage("flow: --packets, --packet and --pcap/--pcapng go one at a time") }
        if force, export == nil { throw .usage("flow: --force only goes with --pcap or --pcapng") }
        let action: Action = if let packet { .packet(packet) }
            else if let export { .export(export.0, path: export.1, force: force) }
            else { .inspect(packets: packets) }
        return FlowQuestion(flowID: id, dataDirectory: dataDirectory, action: action)
    }

    /// The inspector: the connection's facts and its packets by meaning (at most `packets`).
    package func inspector(packets: Int? = nil) async throws(QuestionFailure) -> FlowInspector {
        try await inspecting { inspection throws(InspectorError) in try await inspection.inspector(flowID: flowID, limit: packets) }
    }

    /// Packet `number`'s detail. Its bytes may be missing (`record == nil`): the detail says why.
    package func packet(_ number: Int) async throws(QuestionFailure) -> PacketBytesPresentation {
        try await inspecting { inspection throws(InspectorError) in try await inspection.packet(flowID: flowID, number: number) }
    }

    /// The connection's captured packets as a capture file's bytes, and what could not be written.
    package func capture(_ format: FlowCaptureFormat) async throws(QuestionFailure) -> FlowCaptureExport.Capture {
        try await inspecting { inspection throws(InspectorError) in
            try await FlowCaptureExport(inspection: inspection).capture(flowID: flowID, format: format)
        }
    }

    /// The same bytes written to `url`, all or nothing (an existing file only with `force`).
    package func export(_ format: FlowCaptureFormat, to url: URL, force: Bool) async throws(QuestionFailure) -> FlowCaptureExportSummary {
        try await inspecting { inspection throws(InspectorError) in
            try await FlowCaptureExport(inspection: inspection).export(flowID: flowID, to: url, format: format, force: force)
        }
    }

    private func inspecting<T>(_ body: (FlowInspection) async throws(InspectorError) -> T) async throws(QuestionFailure) -> T {
        let library = CaptureLibrary(dataDirectory: HistoryAccess.dataDirectory(override: dataDirectory))
        return try await HistoryAccess.reading(dataDirectory) { store throws(QuestionFailure) in
            // Decrypted content is read from the history's index and the `.tvpt` files it names.
            let reader = HistoryReader(store: store)
            let plaintext = PlaintextLibrary(dataDirectory: HistoryAccess.dataDirectory(override: dataDirectory))
            let keeps = (try? SettingsStore(dataDirectory: HistoryAccess.dataDirectory(override: dataDirectory)).load())?
                .plaintextPersistenceEnabled ?? false
            let inspection = FlowInspection(store: store, library: library,
                                            decrypted: { id in try await plaintext.readable(try await reader.plaintext(forFlow: id)) },
                                            keepsDecryptedContent: keeps)
            do throws(InspectorError) { return try await body(inspection) } catch { throw QuestionFailure(error) }
        }
    }
}

extension FlowCaptureExportSummary {
    /// What `flow ID --pcap FILE --json` prints.
    package func json(file: String, format: FlowCaptureFormat) -> String {
        var out = JSONWriter()
        out.beginObject()
        out.string("file", file)
        out.string("format", format.rawValue)
        out.number("written", written)
        out.number("captureDeleted", captureDeleted)
        out.number("notCaptured", notCaptured)
        out.number("unreadable", unreadable)
        out.endObject()
        return String(decoding: out.writer.bytes, as: UTF8.self)
    }
}
