import Foundation
import Shared

/// Whether a capture file holds audit evidence (audit.md § Retention): asked before a person
/// deletes it by hand, which still deletes, but only once they were told.
enum CaptureEvidenceStanding: Sendable, Equatable {
    /// Packets of these audit sessions' flows are in it (by session id).
    case held(by: [AuditEvidenceHolder])
    case none
    /// The history could not say (why): treated as held until the person agrees.
    case unknown(String)

    /// The standing of each of `sequences`, read from the history in one query; every one
    /// `.none` when there is no history yet, every one `.unknown` when it cannot be opened or asked.
    static func of(_ sequences: [UInt32], history opening: StorageManager.StoreOpener) async -> [UInt32: CaptureEvidenceStanding] {
        let each = { (standing: (UInt32) -> Self) in
            Dictionary(sequences.map { ($0, standing($0)) }, uniquingKeysWith: { first, _ in first })
        }
        let store: FlowStore?
        do { store = try opening() } catch { return each { _ in .unknown("the history cannot be opened: \(error)") } }
        guard let store else { return each { _ in .none } }
        let holders: [UInt32: [AuditEvidenceHolder]]
        do { holders = try await store.auditEvidenceHolders(ofCaptureFiles: Set(sequences)) } catch {
            await store.close()
            return each { _ in .unknown("\(error)") }
        }
        await store.close()
        return each { sequence in holders[sequence].map { .held(by: $0) } ?? .none }
    }

    /// Deleting it needs the person's agreement: it holds evidence, or nobody can say it does not.
    var needsAgreement: Bool { self != .none }
}
