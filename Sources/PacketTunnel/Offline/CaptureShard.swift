import Shared

/// One of `count` parts of a capture's flows, for reading it with several workers at once: each
/// worker reads every record but counts and reports only the flows of its part — and learns the
/// answers of every DNS reply, since one may name a flow of any part. A flow's part comes from
/// its 5-tuple alone (`FlowKey.stableMix`: both directions, every lifetime, every run), so each
/// flow is read whole by one worker, with the names every worker learned alike.
package struct CaptureShard: Sendable, Equatable {
    package let index: Int
    package let count: Int

    /// The whole capture, read by one worker.
    package static let whole = CaptureShard(index: 0, count: 1)

    package init(index: Int, count: Int) {
        precondition(count > 0 && (0..<count).contains(index), "shard \(index) of \(count)")
        self.index = index
        self.count = count
    }

    /// The worker that reports the capture-wide tallies (records, frames that are not IP,
    /// datagrams the parser refused), so they are counted once.
    package var keepsTallies: Bool { index == 0 }

    /// The flow's part is this one.
    package func owns(_ key: FlowKey) -> Bool {
        count == 1 || Int(key.stableMix % UInt64(count)) == index
    }

    /// A flow of this part is counted; another part's DNS datagrams are read for their names
    /// only, so that every worker learns every name in capture order.
    package func admission(of packet: ParsedPacket, key: FlowKey) -> PacketPipeline.CaptureAdmission {
        if owns(key) { return .count }
        // Queries too: a reply is read only if the other side spoke first, as in its own part.
        guard let udp = packet.udp,
              udp.sourcePort == WellKnownPort.dns || udp.destinationPort == WellKnownPort.dns else { return .skip }
        return .learnNamesOnly
    }

    /// Each share's conversations, each list in the order its conversations began (as
    /// `CaptureAnalyzer.conversations()` gives them), as one list in that order — at the same
    /// instant, capture order (`began(before:)`), which every worker counts alike; else the lower
    /// share's first — so the report is the same with any number of workers.
    package static func merged(_ shares: [[AnalyzedCapture.Conversation]]) -> [AnalyzedCapture.Conversation] {
        guard shares.count > 1 else { return shares.first ?? [] }
        var merged: [AnalyzedCapture.Conversation] = []
        merged.reserveCapacity(shares.reduce(0) { $0 + $1.count })
        var next = Array(repeating: 0, count: shares.count)
        while true {
            var earliest: Int?
            for share in shares.indices where next[share] < shares[share].count {
                let candidate = shares[share][next[share]]
                if earliest.map({ candidate.began(before: shares[$0][next[$0]]) }) ?? true { earliest = share }
            }
            guard let share = earliest else { return merged }
            merged.append(shares[share][next[share]])
            next[share] += 1
        }
    }
}
