#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// The monitored namespace's resolv.conf: `ip netns exec NAME` bind-mounts every file of
/// /etc/netns/NAME/ over /etc/ for the command it runs, so this is the namespace's own file —
/// the host's /etc/resolv.conf is never touched. Removed with the namespace.
public struct NamespaceResolvConf: Sendable {
    public static let parent = "/etc/netns"
    public let directory: String

    /// Writes the file announcing `servers` for `namespace`.
    public init(namespace: String, servers: [IPAddress]) throws(CommandError) {
        directory = "\(Self.parent)/\(namespace)"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Data(TunnelResolvers.resolvConf(announcing: servers).utf8)
                .write(to: URL(fileURLWithPath: directory + "/resolv.conf"))
        } catch {
            throw .launchFailed("resolv.conf", "cannot write \(directory)/resolv.conf: \(error)")
        }
    }

    /// The host's resolvers as its resolv.conf lists them; a stub resolver on loopback
    /// (systemd-resolved's 127.0.0.53) is replaced by the upstreams it reports.
    public static func hostResolvers(resolvConf: String = "/etc/resolv.conf",
                                     upstreams: String = "/run/systemd/resolve/resolv.conf") -> [IPAddress]? {
        guard let text = try? String(contentsOfFile: resolvConf, encoding: .utf8) else { return nil }
        let listed = TunnelResolvers.nameservers(inResolvConf: text)
        if listed.contains(where: { TunnelResolvers.announceable(from: [$0]).isEmpty }),
           let upstreamText = try? String(contentsOfFile: upstreams, encoding: .utf8) {
            return listed + TunnelResolvers.nameservers(inResolvConf: upstreamText)
        }
        return listed
    }

    /// Removes the namespace's folder, and /etc/netns itself when nothing else is left in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: directory)
        rmdir(Self.parent)   // fails, harmlessly, while another namespace's folder is there
    }
}
