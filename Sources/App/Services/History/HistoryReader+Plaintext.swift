import Shared

extension HistoryReader {
    /// The flow's decrypted chunks' index rows in conversation order, at most
    /// `policy.plaintextChunksPerFlow`; `PlaintextLibrary` reads each back. An empty list means
    /// never inspected or expired (the flow's `tlsStatus` tells which); `unknownFlow` when the
    /// history holds no flow `id`.
    package func plaintext(forFlow id: Int64) async throws(HistoryError) -> [StoredPlaintextChunk] {
        do {
            guard try await store.flow(id: id) != nil else { throw HistoryError.unknownFlow(id) }
            return try await store.plaintext(forFlow: id, limit: policy.plaintextChunksPerFlow)
        } catch let error as HistoryError {
            throw error
        } catch {
            throw HistoryError.of(error)
        }
    }
}
