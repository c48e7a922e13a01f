import Shared

/// Following a plaintext exchange to its switch to TLS: which side's follower starts when, and
/// when a switch counts. The client's counts after the server's yes (its follower armed by it),
/// and says the opening; the server's, after the client's switch by the same protocol. In both
/// the relay and the capture the server's yes comes before the client's hello, and that hello
/// before the server's.
extension TCPFlowScanners {
    /// The server's first bytes: the answer to a client grammar already started (PostgreSQL, LDAP,
    /// XMPP), or a greeting before the client spoke (SMTP, IMAP, POP3, FTP). The hello scanner
    /// waits for the switch: plaintext is no ServerHello.
    mutating func startAnswer(firstByte: UInt8) {
        let grammar = upgradeRequest.map { $0.family.answering } ?? (clientOffset == 0 ? UpgradeGrammar.serverSpeaksFirst(firstByte: firstByte) : nil)
        guard let grammar else { return }
        upgradeAnswer = UpgradeFollower(grammar)
        serverHello = nil
    }

    /// Feeds the client's plaintext; returns the stream offset of its handshake once it switched.
    mutating func followRequest(_ bytes: UnsafeRawBufferPointer, into facts: inout [FlowFact]) -> Int? {
        let outcome = upgradeRequest!.scan(bytes)
        if outcome != .needMoreBytes { upgradeRequest = nil }
        // Only after the server's yes (read, its handshake still to come): a client that starts
        // TLS after a refusal, as `openssl s_client` does, meets a server that does not.
        guard let switched = switched(outcome), upgradeAnswer?.armed == switched.upgrade else { return nil }
        requested = switched.upgrade
        // Asked, answered yes, and switched: the upgrade happened, whatever the handshake brings.
        facts.append(.streamOpening(switched.upgrade.opening))
        return switched.end
    }

    /// Feeds the server's plaintext; returns the stream offset of its handshake once it switched.
    /// A greeting read whole starts the follower of the client's commands, if the client has not
    /// spoken yet (it may not before the greeting).
    mutating func followAnswer(_ bytes: UnsafeRawBufferPointer) -> Int? {
        let outcome = upgradeAnswer!.scan(bytes)
        if upgradeRequest == nil, requested == nil, clientOffset == 0, upgradeAnswer!.family.greeted {
            upgradeRequest = UpgradeFollower(.textCommands(TextCommandGrammar()))
        }
        if outcome != .needMoreBytes { upgradeAnswer = nil }
        // The server's handshake answers the client's: both sides switched, by the same protocol.
        guard let switched = switched(outcome), requested == switched.upgrade else { return nil }
        return switched.end
    }

    /// The switch a follower found, if it did; one given up on garbage or its bounds is counted.
    private mutating func switched(_ outcome: UpgradeFollower.Outcome) -> UpgradeFollower.Upgrade? {
        switch outcome {
        case .needMoreBytes: return nil
        case .found(let switched): return switched
        case .unavailable(let reason):
            if reason == .malformed || reason == .tooLarge { upgradeAbandoned = true }
            return nil
        }
    }
}
