import Shared

/// What a storage action did: the captures' and history's pass (nil for *Delete decrypted
/// content*, which leaves them alone) and the decrypted content's.
public struct StorageOutcome: Sendable, Equatable {
    public let captures: RetentionOutcome?
    public let plaintext: PlaintextDeletion

    public init(captures: RetentionOutcome?, plaintext: PlaintextDeletion) {
        self.captures = captures
        self.plaintext = plaintext
    }

    public var failures: [String] { (captures?.failures ?? []) + plaintext.failures }
    public var didChangeAnything: Bool { captures?.didChangeAnything == true || plaintext.didChangeAnything }
}
