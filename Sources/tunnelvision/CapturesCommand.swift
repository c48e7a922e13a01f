import Foundation
import App
import AppLinux
import Shared

/// `tunnelvision captures [rm SEQ… | rotate] [--data-dir D] [--json]`: the capture files, with the
/// one being recorded marked and the room left; deleting some (never the one being recorded);
/// starting a new file through the running tunnel.
enum CapturesCommand {
    enum Action: Equatable {
        case list
        case remove([UInt32])
        case rotate
    }

    struct Request: Equatable {
        var action: Action
        var dataDirectory: String?
        var json: Bool
    }

    static let help = """
    tunnelvision captures [--data-dir D] [--json]
    tunnelvision captures rm SEQ... [--data-dir D] [--json]
    tunnelvision captures rotate [--data-dir D] [--json]

    Lists the capture files (.pcap) the tunnel wrote in the data directory, newest first: each one's
    sequence (the number in its name, which its connections' packets point at), name, size and the
    time of its last write, the one a running tunnel is recording into marked 'recording'; then how
    many there are against the size limit, and the room left before retention deletes the oldest
    (see 'tunnelvision help settings' for the limits and when they are applied).

    rm SEQ...  deletes those captures. The connections stay in the history; only their raw bytes go
               (their packets then read as "capture deleted"). The capture being recorded is refused:
               'captures rotate' first. A sequence that is not there is an error; the others still go.
    rotate     asks the running tunnel to close its capture file and start the next one (so the
               closed one can be copied or deleted without stopping), and says the new file.

    --data-dir D  the data directory (else $TUNNELVISION_DATA, else /var/lib/tunnelvision for root
                  and $XDG_DATA_HOME/tunnelvision for anyone else).
    --json        one JSON object: the listing {"captures": [{"sequence", "name", "bytes",
                  "lastWritten" (UTC), "recording"}], "count", "bytes", "sizeLimit" (bytes or null),
                  "roomLeft" {"size", "expiry", "lines"}, "tunnel" (live|absent|unknown)};
                  rm {"deleted": [SEQ], "failed": [{"sequence", "reason"}], "note"};
                  rotate {"rotated": true, "recording": SEQ}.

    Exit status 1 when anything asked could not be done (a capture refused or not found, no tunnel
    to rotate), 2 on a usage error.
    """

    static func parse(_ arguments: [String], json: Bool) throws(Invocation.UsageError) -> Request {
        var rest = arguments
        let dataDirectory = try Invocation.takeDataDirectory(from: &rest, command: "captures")
        if let unknown = rest.first(where: { $0.hasPrefix("-") }) {
            throw Invocation.UsageError(message: "captures: unknown option \(unknown)")
        }
        switch rest.first {
        case nil:
            return Request(action: .list, dataDirectory: dataDirectory, json: json)
        case "rm":
            let words = rest.dropFirst()
            guard !words.isEmpty else { throw Invocation.UsageError(message: "captures rm: which? (tunnelvision captures rm SEQ…, the sequences 'tunnelvision captures' lists)") }
            var sequences: [UInt32] = []
            for word in words {
                guard let sequence = UInt32(word) else {
                    throw Invocation.UsageError(message: "captures rm: \(word) is not a capture's sequence (a number 'tunnelvision captures' lists)")
                }
                if !sequences.contains(sequence) { sequences.append(sequence) }
            }
            return Request(action: .remove(sequences), dataDirectory: dataDirectory, json: json)
        case "rotate":
            guard rest.count == 1 else { throw Invocation.UsageError(message: "captures rotate: takes nothing more, got \(rest[1])") }
            return Request(action: .rotate, dataDirectory: dataDirectory, json: json)
        case let other?:
            throw Invocation.UsageError(message: "captures: unknown action \(other); it takes rm SEQ… or rotate")
        }
    }

    static func run(_ request: Request) async -> Int32 {
        let directory = HistoryAccess.dataDirectory(override: request.dataDirectory)
        switch request.action {
        case .list: return await list(directory: directory, json: request.json)
        case .remove(let sequences): return await remove(sequences, directory: directory, json: request.json)
        case .rotate: return rotate(directory: directory, json: request.json)
        }
    }

    /// Whether a tunnel records into `directory`, as its control socket says.
    static func presence(in directory: URL) -> CapturesTunnelPresence {
        do {
            _ = try TunnelControlChannel(dataDirectory: directory).send(.stats)
            return .live
        } catch {
            return error.isNotRunning ? .absent : .unknown(error.description)
        }
    }

    /// The data directory's captures, or nil after saying why they cannot be read.
    static func files(in directory: URL, access: DataDirectoryTrust.Access) async -> [CaptureFileInfo]? {
        do {
            try DataDirectory.verify(directory, access: access)
            return try await CaptureLibrary(dataDirectory: directory).files()
        } catch {
            printError("tunnelvision: \(error)")
            return nil
        }
    }

    private static func list(directory: URL, json: Bool) async -> Int32 {
        guard let files = await files(in: directory, access: .read) else { return 1 }
        let presence = presence(in: directory)
        let recording = CapturesPresentation.recordingSequence(files: files, isMonitoring: presence.mayBeRecording)
        let settings = Result { () throws(SettingsError) in
            try SettingsStore(dataDirectory: directory).load().retention
        }
        let headroom = CaptureHeadroom.assess(files: files, settings: settings, recordingSequence: recording, now: Date())
        let rows = CapturesPresentation.rows(files: files, recordingSequence: recording)
        if json {
            print(CapturesJSON.listing(rows: rows, settings: try? settings.get(), headroom: headroom, presence: presence))
            return 0
        }
        if let notice = presence.notice { printError("tunnelvision: \(notice)") }
        if rows.isEmpty { print(CapturesPresentation.emptyState) }
        for row in rows {
            let time = row.lastWritten.map(UTCTimestamp.iso8601) ?? "-"
            print("\(String(row.sequence).leftPadded(to: 6))  \(row.name)  \(row.size.leftPadded(to: 10))  \(time)"
                  + (row.isRecording ? "  recording" : ""))
        }
        print(CapturesPresentation.footer(files: files, sizeLimit: (try? settings.get())?.maxCaptureSize))
        for line in headroom.lines { print(line) }
        return 0
    }

    private static func remove(_ sequences: [UInt32], directory: URL, json: Bool) async -> Int32 {
        guard let files = await files(in: directory, access: .write) else { return 1 }
        let presence = presence(in: directory)
        let recording = CapturesPresentation.recordingSequence(files: files, isMonitoring: presence.mayBeRecording)
        let library = CaptureLibrary(dataDirectory: directory)
        var deleted: [UInt32] = []
        var failed: [(UInt32, String)] = []
        for sequence in sequences {
            if let refusal = CapturesPresentation.deletionRefusal(sequence: sequence, recordingSequence: recording) {
                failed.append((sequence, refusal))
                continue
            }
            do {
                try await library.delete(sequence: sequence)
                deleted.append(sequence)
            } catch {
                failed.append((sequence, error.description))
            }
        }
        if json {
            print(CapturesJSON.removal(deleted: deleted, failed: failed))
        } else {
            if let notice = presence.notice { printError("tunnelvision: \(notice)") }
            for sequence in deleted { print("deleted capture \(sequence)") }
            if !deleted.isEmpty { print(CapturesPresentation.deletionNote) }
            for (_, reason) in failed { printError("tunnelvision: \(reason)") }
        }
        return failed.isEmpty ? 0 : 1
    }

    private static func rotate(directory: URL, json: Bool) -> Int32 {
        let response: ControlResponse
        do {
            response = try TunnelControlChannel(dataDirectory: directory).send(.rotateCapture)
        } catch {
            if error.isNotRunning {
                printError("tunnelvision: no tunnel is running on \(directory.path), so there is no capture being recorded to rotate; "
                           + "'tunnelvision run -- CMD' starts one (or give its --data-dir)")
            } else {
                printError("tunnelvision: \(error)")
            }
            return 1
        }
        guard case .ok = response else {
            if case .failed(let reason) = response { printError("tunnelvision: the tunnel could not rotate its capture: \(reason)") }
            return 1
        }
        // The new file is the highest sequence now (the tunnel answers only ok).
        let files = (try? CaptureDirectory.fileInfos(in: DataDirectoryLayout.captures(in: directory))) ?? []
        let recording = CapturesPresentation.recordingSequence(files: files, isMonitoring: true)
        if json {
            var out = JSONWriter()
            out.beginObject()
            out.bool("rotated", true)
            out.number("recording", recording.map(Int.init))
            out.endObject()
            print(out.writer.string)
        } else {
            print("the tunnel is recording into a new capture" + (recording.map { " (\($0))" } ?? ""))
        }
        return 0
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
