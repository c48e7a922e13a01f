import Foundation
import Shared

/// The captures' questions (`tunnelvision captures [rm SEQ… | rotate]`, `/api/captures…`): the
/// capture files with the one being recorded and those holding audit evidence marked, and the
/// room left; deleting some (never the one being recorded, nor one holding audit evidence unless
/// the person agreed, `includingEvidence`); a new file through the running tunnel.
package struct CapturesQuestion: Sendable, Equatable {
    package enum Action: Sendable, Equatable {
        case list
        case remove([UInt32])
        case rotate
    }

    package var action: Action
    package var dataDirectory: String?
    /// A removal may delete captures holding audit evidence (the person was told, and agreed).
    package var includingEvidence: Bool

    package init(action: Action, dataDirectory: String? = nil, includingEvidence: Bool = false) {
        self.action = action
        self.dataDirectory = dataDirectory
        self.includingEvidence = includingEvidence
    }

    /// Reads the arguments of `captures` (`--json` aside).
    package static func parse(_ arguments: [String]) throws(QuestionFailure) -> CapturesQuestion {
        var rest = arguments
        let dataDirectory = try QuestionOptions.takeDataDirectory(from: &rest, command: "captures")
        let includingEvidence = QuestionOptions.takeSwitch(EvidenceDeletion.option, from: &rest)
        if let unknown = rest.first(where: { $0.hasPrefix("-") }) { throw .usage("captures: unknown option \(unknown)") }
        if includingEvidence, rest.first != "rm" { throw .usage("captures: \(EvidenceDeletion.option) belongs to 'captures rm'") }
        switch rest.first {
        case nil:
            return CapturesQuestion(action: .list, dataDirectory: dataDirectory)
        case "rm":
            let words = rest.dropFirst()
            guard !words.isEmpty else {
                throw .usage("captures rm: which? (tunnelvision captures rm SEQ…, the sequences 'tunnelvision captures' lists)")
            }
            var sequences: [UInt32] = []
            for word in words {
                guard let sequence = UInt32(word) else {
                    throw .usage("captures rm: \(word) is not a capture's sequence (a number 'tunnelvision captures' lists)")
                }
                if !sequences.contains(sequence) { sequences.append(sequence) }
            }
            return CapturesQuestion(action: .remove(sequences), dataDirectory: dataDirectory, includingEvidence: includingEvidence)
        case "rotate":
            guard rest.count == 1 else { throw .usage("captures rotate: takes nothing more, got \(rest[1])") }
            return CapturesQuestion(action: .rotate, dataDirectory: dataDirectory)
        case let other?:
            throw .usage("captures: unknown action \(other); it takes rm SEQ… or rotate")
        }
    }

    package var directory: URL { HistoryAccess.dataDirectory(override: dataDirectory) }

    /// The listing and what it rests on.
    package struct Listing: Sendable {
        package let files: [CaptureFileInfo]
        package let presence: CapturesTunnelPresence
        package let rows: [CapturesPresentation.Row]
        package let settings: Result<RetentionSettings, SettingsError>
        package let headroom: CaptureHeadroom

        package var json: String {
            CapturesJSON.listing(rows: rows, settings: try? settings.get(), headroom: headroom, presence: presence)
        }
    }

    package func listing(tunnel: TunnelControl, now: Date = Date()) async throws(QuestionFailure) -> Listing {
        let directory = directory
        let files = try await Self.files(in: directory, access: .read)
        let presence = tunnel.presence(in: directory)
        let recording = CapturesPresentation.recordingSequence(files: files, isMonitoring: presence.mayBeRecording)
        let settings = Result { () throws(SettingsError) in try SettingsStore(dataDirectory: directory).load().retention }
        let evidence = await StorageManager.evidence(opening: StorageQuestion.storeOpener(dataDirectory: dataDirectory))
        let headroom = CaptureHeadroom.assess(files: files, settings: settings, recordingSequence: recording, evidence: evidence, now: now)
        return Listing(files: files, presence: presence,
                       rows: CapturesPresentation.rows(files: files, recordingSequence: recording, evidence: evidence),
                       settings: settings, headroom: headroom)
    }

    /// What a deletion did: each sequence deleted or why not.
    package struct Removal: Sendable {
        package let presence: CapturesTunnelPresence
        package var deleted: [UInt32] = []
        package var failed: [(sequence: UInt32, reason: String)] = []

        package var json: String { CapturesJSON.removal(deleted: deleted, failed: failed) }
    }

    /// Deletes `sequences` but the one being recorded (and one not there), each said. Unless
    /// `includingEvidence`, refused first, deleting none, when any of those it would delete holds
    /// audit evidence or cannot be checked: `.needsConfirmation`, naming the captures, their audit
    /// sessions and the switch that agrees.
    package func remove(_ sequences: [UInt32], tunnel: TunnelControl) async throws(QuestionFailure) -> Removal {
        let directory = directory
        let files = try await Self.files(in: directory, access: .write)
        var removal = Removal(presence: tunnel.presence(in: directory))
        let recording = CapturesPresentation.recordingSequence(files: files, isMonitoring: removal.presence.mayBeRecording)
        if !includingEvidence {
            let listed = Set(files.map(\.sequence))
            let deletable = sequences.filter { listed.contains($0) && $0 != recording }
            let standings = await CaptureEvidenceStanding.of(deletable, history: StorageQuestion.storeOpener(dataDirectory: dataDirectory))
            if let refusal = EvidenceDeletion.captureRefusal(deletable.map { ($0, standings[$0] ?? .none) }) {
                throw QuestionFailure(.needsConfirmation, refusal.message,
                                      parameter: .init(name: EvidenceDeletion.switchName, problem: refusal.problem))
            }
        }
        let library = CaptureLibrary(dataDirectory: directory)
        for sequence in sequences {
            if let refusal = CapturesPresentation.deletionRefusal(sequence: sequence, recordingSequence: recording) {
                removal.failed.append((sequence, refusal))
                continue
            }
            do {
                try await library.delete(sequence: sequence)
                removal.deleted.append(sequence)
            } catch {
                removal.failed.append((sequence, error.description))
            }
        }
        return removal
    }

    /// The tunnel's new capture after a rotation: the highest sequence now (it answers only ok).
    package struct Rotation: Sendable, Equatable {
        package let recording: UInt32?

        package var json: String {
            var out = JSONWriter()
            out.beginObject()
            out.bool("rotated", true)
            out.number("recording", recording.map(Int.init))
            out.endObject()
            return out.writer.string
        }

        package var text: String { "the tunnel is recording into a new capture" + (recording.map { " (\($0))" } ?? "") }
    }

    package func rotate(tunnel: TunnelControl) throws(QuestionFailure) -> Rotation {
        let directory = directory
        let noTunnel = QuestionFailure(.noTunnel, "no tunnel is running on \(directory.path), so there is no capture being recorded "
                                       + "to rotate; 'tunnelvision run -- CMD' starts one (or give its --data-dir)")
        let response: ControlResponse
        do {
            response = try tunnel.send(.rotateCapture, in: directory)
        } catch {
            guard case .failed(let reason) = error else { throw noTunnel }
            throw QuestionFailure(.failed, reason)
        }
        switch response {
        case .ok: break
        case .failed(let reason): throw QuestionFailure(.failed, "the tunnel could not rotate its capture: \(reason)")
        // A tunnel whose session is ending answers so: it records nothing more to rotate.
        case .notRunning: throw noTunnel
        case .stats: throw QuestionFailure(.failed, "the tunnel answered the rotation with its counters, so nothing was rotated")
        }
        let files = (try? CaptureDirectory.fileInfos(in: DataDirectoryLayout.captures(in: directory))) ?? []
        return Rotation(recording: CapturesPresentation.recordingSequence(files: files, isMonitoring: true))
    }

    /// The data directory's captures, once the directory can be trusted for `access`.
    static func files(in directory: URL, access: DataDirectoryTrust.Access) async throws(QuestionFailure) -> [CaptureFileInfo] {
        do {
            try DataDirectory.verify(directory, access: access)
            return try await CaptureLibrary(dataDirectory: directory).files()
        } catch {
            throw QuestionFailure(.failed, "\(error)")
        }
    }
}
