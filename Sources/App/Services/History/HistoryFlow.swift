import Foundation
import Shared

/// A stored flow as the timeline shows it: its ends split into local and remote through
/// `LiveFeedAddressing` (nil when that cannot be told, never guessed), and the name it goes by.
package struct HistoryFlow: Sendable, Hashable, Identifiable {
    package let stored: StoredFlow
    package let endpoints: FlowEndpoints?
    /// Where the listing this flow was read in goes on just past it (nil when it was not read in
    /// one): what a screen that drops the rows under it asks older ones after.
    package internal(set) var position: FlowCursor?

    package init(_ stored: StoredFlow, localAddresses: Set<IPAddress> = TunnelAddressing.localAddresses) {
        self.stored = stored
        endpoints = LiveFeedAddressing.endpoints(of: stored.key, localEnd: stored.localEnd, localAddresses: localAddresses)
    }

    /// The flow's row id in the history.
    package var id: Int64 { stored.id }

    /// The SNI (TLS or QUIC), else the name DNS gave the address, with where it came from.
    package var name: FlowName? { stored.name }

    /// Where `name` came from: `sni`, then `quic`, then `proxy`, then `dns`.
    package var nameSource: FlowNameSource? { name.map { FlowNameSource($0, proto: stored.key.proto) } }

    /// `nameSource` as a person reads it beside the name (the proxy's protocol with `proxy`): the
    /// one wording the text, the JSON and the web's rows share.
    package var nameSourceText: String? { nameSource?.phrase(proxyProtocol: stored.proxyTarget?.proxyProtocol) }

    /// The remote address written out; nil when the ends could not be split.
    package var remoteAddress: String? { endpoints.map { "\($0.remote.address)" } }

    /// The name if there is one, else the remote address; nil when neither is known.
    package var displayHost: String? { name?.text ?? remoteAddress }

    /// What a search matches against: the name, its other candidates, a proxy request's target and
    /// the remote address (both addresses when the ends could not be split), lowercased.
    var searchableNames: [String] {
        var names: [String] = []
        if let name {
            names.append(name.text)
            names.append(contentsOf: name.otherCandidates)
        }
        if let target = stored.proxyTarget { names.append(target.host) }
        if let remoteAddress {
            names.append(remoteAddress)
        } else {
            names.append("\(stored.key.endpointA.address)")
            names.append("\(stored.key.endpointB.address)")
        }
        return names.map { $0.lowercased() }
    }

    package var remotePort: UInt16? { endpoints?.remote.port }
}
