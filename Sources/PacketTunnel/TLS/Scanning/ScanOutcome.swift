/// What a handshake scanner says after each chunk it is fed: it needs more bytes, it found what it
/// looks for, or it never will, and why. Sticky once it is not `needMoreBytes`: every later call
/// says the same.
package enum ScanOutcome<Found: Sendable & Equatable, Reason: Sendable & Equatable>: Sendable, Equatable {
    case needMoreBytes
    case found(Found)
    case unavailable(Reason)
}
