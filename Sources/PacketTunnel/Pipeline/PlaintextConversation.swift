import Shared

/// One inspected flow's decrypted content as the pipeline keeps it: its conversation id in the
/// files, the lifetime it belongs to (a new connection on the same 5-tuple is a new conversation),
/// what its budget kept, when each direction's last chunk came, and its requests' heads.
struct PlaintextConversation {
    let stream: UInt64
    let firstSeen: UInt64
    var budget: PlaintextBudget
    var lastChunk: [UInt64?] = [nil, nil]
    /// Its request heads, for the history's search.
    var requests = HTTPRequestHeads()
}
