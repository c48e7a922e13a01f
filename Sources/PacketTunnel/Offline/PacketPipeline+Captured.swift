import Shared

/// The pipeline's entry for a capture made elsewhere, read offline (`CaptureAnalyzer`): records
/// possibly cut at their snaplen, admitted by the reader's share of the flows, with the first
/// sender's direction rule. The live tunnel never comes here.
extension PacketPipeline {
    /// Whether a parsed datagram of a capture is this pipeline's to count.
    package enum CaptureAdmission: Sendable, Equatable {
        /// Counted into its flow.
        case count
        /// Another reader counts its flow; only the names a DNS reply teaches are learned here.
        case learnNamesOnly
        /// Another reader's entirely.
        case skip
    }

    /// What became of a datagram of a capture made elsewhere.
    package enum CapturedOutcome: Sendable, Equatable {
        /// Counted into its flow.
        case recorded
        /// Parsed, but left to another reader (its names learned, if it was admitted for those).
        case notCounted
        /// Dropped for a counted reason: the parser refused it (or, were the tunnel's own
        /// addresses the direction rule, it was neither's).
        case dropped
    }

    /// A datagram of a capture made elsewhere, possibly cut at its snaplen: counted at its
    /// original length. (Offline only: the live tunnel always has the whole datagram.) Once
    /// parsed, `admit` decides whether it is this pipeline's to count; a packet recorded is handed
    /// to `passed` with its flow.
    ///
    /// The parse is lent to the closures rather than returned: copying it out of a result was a
    /// measurable share of reading a capture.
    package func handle(captured packet: UnsafeRawBufferPointer, originalLength: Int, now: UInt64,
                        admit: (ParsedPacket, FlowKey) -> CaptureAdmission = { _, _ in .count },
                        passed: (ParsedPacket, RecordedFlow) -> Void) -> CapturedOutcome {
        let parsed: ParsedPacket
        do {
            parsed = try PacketParser.parse(packet, originalLength: originalLength)
        } catch {
            counters.packetsHandled &+= 1
            counters.bytesHandled &+= UInt64(originalLength)
            counters.parseDrops.count(error)
            return .dropped
        }
        let key = parsed.flowKey
        switch admit(parsed, key) {
        case .count: break
        case .learnNamesOnly:
            learnNames(fromUncounted: parsed, packet, key: key, now: now)
            return .notCounted
        case .skip: return .notCounted
        }
        counters.packetsHandled &+= 1
        counters.bytesHandled &+= UInt64(originalLength)
        lastNow = max(lastNow, now)
        // Under the first-sender rule every packet has a direction; another rule may drop it.
        switch record(parsed, packet, now: now, reinjected: false) {
        case .counted(let flow):
            passed(parsed, flow)
            return .recorded
        case .noDirection, .refused:
            return .dropped
        }
    }

    /// A datagram of a flow another reader of the capture counts: a DNS reply's answers are
    /// learned as if its flow were counted here (by the same direction rule), and nothing is
    /// counted.
    func learnNames(fromUncounted parsed: ParsedPacket, _ packet: UnsafeRawBufferPointer, key: FlowKey, now: UInt64) {
        // The rule sees every packet, a query too: the first sender is decided at the first one.
        guard let udp = parsed.udp, directionRule.direction(of: parsed, key: key, found: nil)?.0 == .inbound,
              udp.sourcePort == WellKnownPort.dns else { return }
        learnNames(from: UnsafeRawBufferPointer(rebasing: packet[udp.payloadRange]), now: now, tellingItsFlow: false)
    }
}
