import Shared

extension HistoryAccess {
    /// `body` over the history's store, opened for reading (never created) and closed after,
    /// whatever `body` answers. `prefix` goes before the sentence when the history cannot be opened.
    static func reading<T>(_ dataDirectory: String?, prefix: String = "",
                           _ body: (FlowStore) async throws(QuestionFailure) -> T) async throws(QuestionFailure) -> T {
        let store: FlowStore
        do throws(Failure) { store = try openStore(dataDirectory: dataDirectory) } catch { throw QuestionFailure(error, prefix: prefix) }
        let result: Result<T, QuestionFailure>
        do throws(QuestionFailure) { result = .success(try await body(store)) } catch { result = .failure(error) }
        await store.close()
        return try result.get()
    }
}
