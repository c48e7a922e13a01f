import Shared

/// Follows one side of a plaintext exchange to where that side switches to TLS: the upgrade's
/// marker (the client's STARTTLS and its kin, or the server's yes to it) and then, at once, a TLS
/// record's first byte: a handshake (22), or an alert (21) — a server may refuse the ClientHello
/// that follows its yes, and that answer is read as for any TLS stream. A pure value fed chunk by chunk, one byte at a time through
/// the side's grammar; it keeps no more than the start of the line, tag or message it is in.
///
/// A marker not followed by a handshake record is taken back (a refused STARTTLS: the client goes
/// on in plaintext, or the server's 220 was its greeting). The grammar says when the exchange is
/// none of its protocol, or when the other side refused for good.
///
/// What it answers: `found(upgrade)` with the stream offset where the handshake begins;
/// `unavailable(.notMine)` for bytes of no such exchange, `.refused`, `.malformed` for bytes the
/// protocol forbids (a control byte in a line, a BER length that does not fit), `.tooLarge` when
/// no switch came within `UpgradeLimits.maxPlaintextBytes`. Sticky once settled.
package struct UpgradeFollower: Sendable {
    package struct Upgrade: Sendable, Equatable {
        package var upgrade: PlaintextUpgrade
        /// The stream offset of the handshake's first byte.
        package var end: Int
    }

    package enum Reason: Sendable, Equatable { case notMine, refused, malformed, tooLarge }

    package typealias Outcome = ScanOutcome<Upgrade, Reason>

    /// What a grammar says after a byte.
    enum Step: Equatable {
        case more
        /// A unit ended (a line, a tag, a message) that switches this side to TLS if a handshake
        /// follows at once.
        case marker(PlaintextUpgrade)
        case notMine, refused, malformed
    }

    private var grammar: UpgradeGrammar
    private var offset = 0
    /// A marker was read and the next byte decides: the switch this side has said yes to, or asked
    /// for, so far.
    package private(set) var armed: PlaintextUpgrade?
    private var settled: Outcome?

    package init(_ grammar: UpgradeGrammar) { self.grammar = grammar }

    /// The protocol the grammar reads, as far as it knows it yet.
    package var family: UpgradeGrammar { grammar }

    package mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        if let settled { return settled }
        for byte in bytes {
            if let armed {
                if byte == TLSWire.handshake || byte == TLSWire.alert { return settle(.found(Upgrade(upgrade: armed, end: offset))) }
                self.armed = nil
            }
            guard offset < UpgradeLimits.maxPlaintextBytes else { return settle(.unavailable(.tooLarge)) }
            offset += 1
            switch grammar.feed(byte) {
            case .more: break
            case .marker(let upgrade): armed = upgrade
            case .notMine: return settle(.unavailable(.notMine))
            case .refused: return settle(.unavailable(.refused))
            case .malformed: return settle(.unavailable(.malformed))
            }
        }
        return .needMoreBytes
    }

    private mutating func settle(_ outcome: Outcome) -> Outcome {
        settled = outcome
        grammar = .settled
        return outcome
    }
}
