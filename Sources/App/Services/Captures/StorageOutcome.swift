import Shared

/// What a storage action did: the captures' and history's pass (nil for *Delete decrypted
/// content*, which leaves them alone) and the decrypted content's.
package struct StorageOutcome: Sendable, Equatable {
    package let captures: RetentionOutcome?
    package let plaintext: PlaintextDeletion

    package init(captures: RetentionOutcome?, plaintext: PlaintextDeletion) {
        self.captures = captures
        self.plaintext = plaintext
    }

    package var failures: [String] { (captures?.failures ?? []) + plaintext.failures }
    package var didChangeAnything: Bool { captures?.didChangeAnything == true || plaintext.didChangeAnything }
}
