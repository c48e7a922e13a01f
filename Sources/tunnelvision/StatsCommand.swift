#if canImport(Glibc)
import Glibc
#endif
import Foundation
import AppLinux
import Shared

/// `tunnelvision stats [--data-dir D] [--json]`: asks the running tunnel for its counters over
/// the control socket.
enum StatsCommand {
    static func run(dataDirectory override: String?, json: Bool) -> Int32 {
        let directory = DataDirectory.location(override: override, environment: ProcessInfo.processInfo.environment,
                                               effectiveUserID: geteuid())
        let path = DataDirectoryLayout.controlSocket(in: directory).path
        let response: ControlResponse
        do {
            response = try ControlClient.send(.stats, to: path)
        } catch {
            printError("tunnelvision: \(error)")
            return 1
        }
        guard case .stats(let stats) = response else {
            printError("tunnelvision: the tunnel answered \(String(decoding: ControlChannel.encode(response), as: UTF8.self))")
            return 1
        }
        if json {
            print(String(decoding: ControlChannel.encode(response), as: UTF8.self))
        } else {
            print(text(stats))
        }
        return 0
    }

    /// Every counter as `name value`, grouped: the pipeline (what was recorded), then the relay
    /// (what was forwarded). Read off the JSON so no counter is ever left out of the listing.
    static func text(_ stats: TunnelStats) -> String {
        var lines: [String] = []
        for (title, value) in [("pipeline", AnyEncodable(stats.pipeline)), ("relay", stats.relay.map(AnyEncodable.init)),
                               ("resolvers", stats.resolvers.map(AnyEncodable.init))] {
            guard let value, let data = try? JSONEncoder().encode(value),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                lines.append("\(title): not available")
                continue
            }
            lines.append("\(title):")
            for key in object.keys.sorted() {
                if let nested = object[key] as? [String: Any] {
                    for inner in nested.keys.sorted() { lines.append("  \(key).\(inner)  \(nested[inner]!)") }
                } else {
                    lines.append("  \(key)  \(object[key]!)")
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}

private struct AnyEncodable: Encodable {
    let value: any Encodable
    init(_ value: any Encodable) { self.value = value }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}
