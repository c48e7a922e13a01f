import Shared

/// A connection's two ends as a screen presents them: this machine and the other end when the
/// history can tell which is which, else the two ends as they are — a conversation `tunnelvision
/// analyze` read from a capture of other machines, where neither end is this one. Never guessed:
/// such a conversation is not drawn as "this machine" talking to a "remote" (`HistoryFlow`'s
/// `endpoints` is nil exactly then).
package enum ConversationEnds: Sendable, Equatable {
    case thisMachine(local: IPEndpoint, remote: IPEndpoint)
    case neither(IPEndpoint, IPEndpoint)

    package init(_ flow: HistoryFlow) {
        if let endpoints = flow.endpoints {
            self = .thisMachine(local: endpoints.local, remote: endpoints.remote)
        } else {
            self = .neither(flow.stored.key.endpointA, flow.stored.key.endpointB)
        }
    }

    /// Whether one end is this machine's.
    package var includesThisMachine: Bool {
        if case .thisMachine = self { true } else { false }
    }

    /// Who the connection is with, when it has no name: the other end's address, or both ends'
    /// ("198.18.0.1 ↔ 198.18.0.2") when neither is this machine's.
    package var label: String {
        switch self {
        case .thisMachine(_, let remote): "\(remote.address)"
        case .neither(let first, let second): "\(first.address) ↔ \(second.address)"
        }
    }

    /// Said under the host of a conversation between two other machines; nil for this machine's.
    package var note: String? {
        switch self {
        case .thisMachine: nil
        case .neither: Self.neitherNote
        }
    }

    static let neitherNote = "neither end is this machine: a conversation read from a capture"

    /// Said where a name would be, when none was seen: what the label is instead.
    package var unnamed: String {
        switch self {
        case .thisMachine: "no name was seen; this is its address"
        case .neither: "no name was seen; these are its two ends"
        }
    }

    /// The two ends as the Inspector's facts, in order: this machine's first when there is one.
    package var facts: [(label: String, value: String)] {
        switch self {
        case .thisMachine(let local, let remote):
            [("This machine", FlowInspector.words(local)), ("Other end", FlowInspector.words(remote))]
        case .neither(let first, let second):
            [("One end", FlowInspector.words(first)), ("The other end", FlowInspector.words(second))]
        }
    }

    /// `"conversation": {"thisMachine", "label", "note", "unnamed", "ends": [{"label", "text"}, …]}`, beside
    /// a flow's other fields wherever a screen lists or inspects one.
    package func write(to out: inout JSONWriter) {
        out.beginObject("conversation")
        out.bool("thisMachine", includesThisMachine)
        out.string("label", label)
        out.string("note", note)
        out.string("unnamed", unnamed)
        FlowInspector.write("ends", facts, to: &out)
        out.endObject()
    }
}
