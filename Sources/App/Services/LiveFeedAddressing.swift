import Shared

/// A flow's two ends once it is known which one is this machine's.
package struct FlowEndpoints: Sendable, Hashable {
    package let local: IPEndpoint
    package let remote: IPEndpoint

    package init(local: IPEndpoint, remote: IPEndpoint) {
        self.local = local
        self.remote = remote
    }
}

/// The one place the local/remote split of a canonical `FlowKey` is decided, for the live feed and
/// the history alike — were each screen to decide it, one flow could show a different host on each.
package enum LiveFeedAddressing {
    /// The split, or nil when neither end (or both) is one of `localAddresses`: it is never guessed.
    /// The split of a stored flow: the end recorded as the machine's when there is one
    /// (`StoredFlow.localEnd`), else as `endpoints(of:localAddresses:)` decides.
    package static func endpoints(of key: FlowKey, localEnd: IPEndpoint?, localAddresses: Set<IPAddress>) -> FlowEndpoints? {
        if let localEnd, localEnd == key.endpointA || localEnd == key.endpointB {
            return FlowEndpoints(local: localEnd, remote: localEnd == key.endpointA ? key.endpointB : key.endpointA)
        }
        return endpoints(of: key, localAddresses: localAddresses)
    }

    package static func endpoints(of key: FlowKey, localAddresses: Set<IPAddress>) -> FlowEndpoints? {
        let aIsLocal = localAddresses.contains(key.endpointA.address)
        let bIsLocal = localAddresses.contains(key.endpointB.address)
        switch (aIsLocal, bIsLocal) {
        case (true, false): return FlowEndpoints(local: key.endpointA, remote: key.endpointB)
        case (false, true): return FlowEndpoints(local: key.endpointB, remote: key.endpointA)
        default: return nil
        }
    }
}
