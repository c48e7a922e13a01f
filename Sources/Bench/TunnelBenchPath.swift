/// The ways out of a namespace that `tvlab bench tunnel` compares: the direct path (no relay at
/// all), TunnelVision's tunnel around one command (`run`), the same namespace monitored as a
/// routed service (`up --host`) and watched passively (`up --interface`), and the two userspace
/// relays people use for namespaces today.
package enum TunnelBenchPath: String, CaseIterable, Sendable, Equatable {
    case direct
    case tunnel
    case routed
    case passive
    case pasta
    case slirp4netns
    /// HAProxy in TCP mode in host, no TUN: what a relay that ends TCP reaches on this machine.
    case haproxy

    /// Whether the path is a TunnelVision service (`up`), measured for its memory and, passive, its drops.
    package var isService: Bool { self == .routed || self == .passive }

    /// Whether the path relays through an interface whose MTU the bench sets (`--mtu`): the
    /// tunnel, pasta and slirp4netns, measured once at each MTU asked.
    package var takesMTU: Bool { self == .tunnel || self == .pasta || self == .slirp4netns }

    /// The paths named in `text`, comma-separated (`direct,tunnel`), in the order given.
    /// An empty item, an unknown name or a name given twice is refused with a sentence naming it.
    package static func list(from text: String) -> Result<[TunnelBenchPath], ListError> {
        var paths: [TunnelBenchPath] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = String(item)
            guard let path = TunnelBenchPath(rawValue: name) else {
                return .failure(name.isEmpty ? .empty : .unknown(name))
            }
            guard !paths.contains(path) else { return .failure(.repeated(name)) }
            paths.append(path)
        }
        return .success(paths)
    }

    /// Why a `--paths` list was refused.
    package enum ListError: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case unknown(String)
        case repeated(String)

        package var description: String {
            let known = TunnelBenchPath.allCases.map(\.rawValue).joined(separator: ", ")
            return switch self {
            case .empty: "an empty path name (choose from \(known), comma-separated)"
            case .unknown(let name): "unknown path \(name) (choose from \(known))"
            case .repeated(let name): "\(name) is named twice"
            }
        }
    }
}
