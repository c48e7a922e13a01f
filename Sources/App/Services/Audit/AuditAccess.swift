import Foundation
import Shared

/// Opening the history for the audit's questions. A project comes before the first recording, so
/// writing creates the history (in a data directory made 0700 and checked like the tunnel's);
/// reading never does, and says there is no history instead.
enum AuditAccess {
    /// `body` over the history's store, created if missing, closed after whatever `body` answers.
    static func writing<T>(_ dataDirectory: String?,
                           _ body: (FlowStore) async throws(QuestionFailure) -> T) async throws(QuestionFailure) -> T {
        let directory = HistoryAccess.dataDirectory(override: dataDirectory)
        let store: FlowStore
        do {
            try DataDirectory.prepare(directory)
        } catch {
            throw QuestionFailure(.failed, error.description)
        }
        do throws(StoreError) { store = try FlowStore(dataDirectory: directory, origin: "audit") } catch {
            throw QuestionFailure(.failed, error.description)
        }
        let result: Result<T, QuestionFailure>
        do throws(QuestionFailure) { result = .success(try await body(store)) } catch { result = .failure(error) }
        await store.close()
        return try result.get()
    }

    static func reading<T>(_ dataDirectory: String?,
                           _ body: (FlowStore) async throws(QuestionFailure) -> T) async throws(QuestionFailure) -> T {
        try await HistoryAccess.reading(dataDirectory, body)
    }
}

extension QuestionFailure {
    /// A broken audit rule is the person's to fix (not found, or refused as asked); the history
    /// failing is a failure.
    init(_ error: AuditStoreError) {
        let kind: Kind = switch error {
        case .projectNotFound, .sessionNotFound: .notFound
        case .store: .failed
        case .emptyProjectName, .duplicateAllowlistPattern, .sessionAlreadyOpen, .sessionAlreadyEnded,
             .dateBeforeSessionStart, .emptyMarkerLabel: .badParameter
        }
        self.init(kind, error.description)
    }
}
