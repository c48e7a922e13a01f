#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// The storage questions (`tunnelvision storage [apply | clear | clear-plaintext]`, `/api/storage…`):
/// what the captures, the history and the decrypted content take and what the limits will do;
/// applying the limits now; deleting everything; deleting the decrypted content alone. Asking a
/// person before a clear is the command's; here a clear is one already agreed — but not to
/// deleting audit evidence, which needs `includingEvidence` besides (`--including-evidence`).
package struct StorageQuestion: Sendable, Equatable {
    package enum Action: Sendable, Equatable {
        case usage
        case apply
        case clear(confirmed: Bool)
        case clearPlaintext(confirmed: Bool)
    }

    package var action: Action
    package var dataDirectory: String?
    /// A clear may delete the audit evidence in the history (the person was told, and agreed).
    package var includingEvidence: Bool

    package init(action: Action, dataDirectory: String? = nil, includingEvidence: Bool = false) {
        self.action = action
        self.dataDirectory = dataDirectory
        self.includingEvidence = includingEvidence
    }

    /// Reads the arguments of `storage` (`--json` aside).
    package static func parse(_ arguments: [String]) throws(QuestionFailure) -> StorageQuestion {
        var rest = arguments
        let dataDirectory = try QuestionOptions.takeDataDirectory(from: &rest, command: "storage")
        let yes = QuestionOptions.takeSwitch("--yes", from: &rest)
        let includingEvidence = QuestionOptions.takeSwitch(EvidenceDeletion.option, from: &rest)
        if let unknown = rest.first(where: { $0.hasPrefix("-") }) { throw .usage("storage: unknown option \(unknown)") }
        let action: Action
        switch rest.first {
        case nil: action = .usage
        case "apply": action = .apply
        case "clear": action = .clear(confirmed: yes)
        case "clear-plaintext": action = .clearPlaintext(confirmed: yes)
        case let other?: throw .usage("storage: unknown action \(other); it takes apply, clear or clear-plaintext")
        }
        if rest.count > 1 { throw .usage("storage \(rest[0]): takes nothing more, got \(rest[1])") }
        if yes, action != .clear(confirmed: true), action != .clearPlaintext(confirmed: true) {
            throw .usage("storage: --yes belongs to 'storage clear' and 'storage clear-plaintext'")
        }
        if includingEvidence, action != .clear(confirmed: yes) {
            throw .usage("storage: \(EvidenceDeletion.option) belongs to 'storage clear'")
        }
        return StorageQuestion(action: action, dataDirectory: dataDirectory, includingEvidence: includingEvidence)
    }

    package var directory: URL { HistoryAccess.dataDirectory(override: dataDirectory) }

    /// The data directory, checked for what the action needs, and the tunnel's presence there.
    package func prepare(tunnel: TunnelControl) throws(QuestionFailure) -> CapturesTunnelPresence {
        do {
            try DataDirectory.verify(directory, access: action == .usage ? .read : .write)
        } catch {
            throw QuestionFailure(.failed, "\(error)")
        }
        return tunnel.presence(in: directory)
    }

    /// What the storage takes and what the limits would delete now.
    package struct Usage: Sendable {
        package let usage: StorageUsage
        package let settings: Result<RetentionSettings, SettingsError>
        /// What applying the limits would do now; nil when they cannot be read.
        package let preview: RetentionPreview?
        package let presence: CapturesTunnelPresence
        /// The Settings card's decisions, from the whole settings; nil when they cannot be read.
        package var card: DecryptedContentCard? = nil

        package var limits: RetentionSettings? { try? settings.get() }
        package var problem: String? { if case .failure(let error) = settings { error.description } else { nil } }
        /// Everything could be read (else the command's exit status is 1; the document says what not).
        package var isComplete: Bool { usage.isComplete && problem == nil }

        package var plan: RetentionPlan? { preview?.plan }
        package var json: String {
            StorageReport.usageJSON(usage, settings: limits, problem: problem, preview: preview, presence: presence, card: card)
        }
        package var lines: [String] { StorageReport.usageLines(usage) + StorageReport.limitLines(settings: limits, problem: problem, preview: preview) }
    }

    package func usage(presence: CapturesTunnelPresence) async throws(QuestionFailure) -> Usage {
        // One reading of the file: the limits and the card's decisions come from the same settings.
        let stored = storedSettings
        let settings = stored.map(\.retention)
        let card = (try? stored.get()).map(DecryptedContentCard.init)
        return try await managing { manager throws(StorageError) in
            let usage = try await manager.usage()
            var preview: RetentionPreview?
            if case .success(let limits) = settings { preview = try await manager.preview(limits, isMonitoring: presence.mayBeRecording) }
            return Usage(usage: usage, settings: settings, preview: preview, presence: presence, card: card)
        }
    }

    /// The stored limits applied now — the captures' and history's, then the decrypted content's
    /// sweep; refused, deleting nothing, when they cannot be read.
    package func apply(presence: CapturesTunnelPresence) async throws(QuestionFailure) -> StorageOutcome {
        let limits: RetentionSettings
        switch settings {
        case .success(let read): limits = read
        case .failure(let problem):
            throw QuestionFailure(.failed, "the retention limits cannot be read, so nothing was deleted: \(problem). "
                                  + "'tunnelvision settings' shows what is wrong")
        }
        return try await managing { manager throws(StorageError) in
            let captures = try await manager.enforce(limits, isMonitoring: presence.mayBeRecording).outcome
            return StorageOutcome(captures: captures,
                                  plaintext: await manager.sweepPlaintext(limits, isMonitoring: presence.mayBeRecording))
        }
    }

    /// What a clear would delete, for the question asked before it: the connections (and how many
    /// are audit evidence), the captures, and the decrypted-content files but the one being written.
    package func clearingPlan(presence: CapturesTunnelPresence) async throws(QuestionFailure)
    -> (connections: Int?, auditConnections: Int?, files: [CaptureFileInfo], plaintext: [PlaintextFileInfo]) {
        let plaintext = try plaintextToClear(presence: presence)
        return try await managing { manager throws(StorageError) in
            let plan = try await manager.clearingPlan(isMonitoring: presence.mayBeRecording)
            return (plan.connections, plan.auditConnections, plan.files, plaintext)
        }
    }

    /// The decrypted-content files a clear would delete: all but the one being written.
    package func plaintextToClear(presence: CapturesTunnelPresence) throws(QuestionFailure) -> [PlaintextFileInfo] {
        let files: [PlaintextFileInfo]
        do { files = try PlaintextDirectory.fileInfos(in: DataDirectoryLayout.plaintext(in: directory)) } catch {
            throw QuestionFailure(.failed, "the decrypted-content folder cannot be listed, so nothing was deleted: \(error)")
        }
        let open = PlaintextRetentionPlanner.openSequence(files: files, isMonitoring: presence.mayBeRecording)
        return files.filter { $0.sequence != open }
    }

    /// Every connection, every capture but the one being recorded and every decrypted-content
    /// file but the one being written, deleted. Refused, deleting nothing, while the history holds
    /// audit evidence (or cannot say) and `includingEvidence` is off: `.needsConfirmation`, naming
    /// the switch that agrees.
    package func clear(presence: CapturesTunnelPresence) async throws(QuestionFailure) -> StorageOutcome {
        let manager = manager
        do throws(StorageError) {
            let captures = try await manager.clearEverything(isMonitoring: presence.mayBeRecording, includingEvidence: includingEvidence)
            return StorageOutcome(captures: captures, plaintext: await manager.clearPlaintext(isMonitoring: presence.mayBeRecording))
        } catch {
            switch error {
            case .clearingWouldDeleteEvidence, .clearingEvidenceUnknown:
                throw QuestionFailure(.needsConfirmation, EvidenceDeletion.clearRefusal(error),
                                      parameter: .init(name: EvidenceDeletion.switchName, problem: EvidenceDeletion.clearProblem(error)))
            case .capturesUnavailable: throw QuestionFailure(.failed, "\(error)")
            }
        }
    }

    /// The decrypted content alone deleted (index and files), the file being written spared and said.
    package func clearPlaintext(presence: CapturesTunnelPresence) async throws(QuestionFailure) -> StorageOutcome {
        try await managing { manager throws(StorageError) in
            StorageOutcome(captures: nil, plaintext: await manager.clearPlaintext(isMonitoring: presence.mayBeRecording))
        }
    }

    /// The sentence a clear without a confirmation and no terminal to ask on gets.
    package static let clearNeedsConfirmation = "storage clear deletes every connection, capture and file of decrypted "
        + "content; without a terminal to ask, it needs --yes (nothing was deleted)"
    package static let clearPlaintextNeedsConfirmation = "storage clear-plaintext deletes the decrypted content kept on "
        + "disk; without a terminal to ask, it needs --yes (nothing was deleted)"

    private var settings: Result<RetentionSettings, SettingsError> { storedSettings.map(\.retention) }

    private var storedSettings: Result<AppSettings, SettingsError> {
        let directory = directory
        return Result { () throws(SettingsError) in try SettingsStore(dataDirectory: directory).load() }
    }

    private func managing<T>(_ body: (StorageManager) async throws(StorageError) -> T) async throws(QuestionFailure) -> T {
        do { return try await body(manager) } catch { throw QuestionFailure(.failed, "\(error)") }
    }

    /// This directory's storage manager.
    private var manager: StorageManager {
        StorageManager(library: CaptureLibrary(dataDirectory: directory), plaintextDirectory: DataDirectoryLayout.plaintext(in: directory),
                       openingStore: Self.storeOpener(dataDirectory: dataDirectory))
    }

    /// Opens the history for reading, never creating it: nil when there is none yet.
    static func storeOpener(dataDirectory override: String?) -> StorageManager.StoreOpener {
        {
            let database = DataDirectoryLayout.database(in: HistoryAccess.dataDirectory(override: override))
            if PathStatus.of(database.path) == nil, errno == ENOENT { return nil }
            return try HistoryAccess.openStore(dataDirectory: override)
        }
    }
}
