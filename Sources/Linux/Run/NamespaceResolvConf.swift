#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// The monitored namespace's resolv.conf: `ip netns exec NAME` bind-mounts every file of
/// /etc/netns/NAME/ over /etc/ for the command it runs, so this is the namespace's own file —
/// the host's /etc/resolv.conf is never touched. Removed with the namespace.
package struct NamespaceResolvConf: Sendable {
    package static let parent = "/etc/netns"
    package let directory: String

    /// Writes the file announcing `servers` for `namespace`. World-readable (0755 folder, 0644
    /// file) like /etc/resolv.conf itself: CMD may run as the invoking user, who must read it.
    /// Written without following a link at either name.
    package init(namespace: String, servers: [IPAddress]) throws(CommandError) {
        directory = "\(Self.parent)/\(namespace)"
        let file = directory + "/resolv.conf"
        func failure(_ path: String, _ code: Int32) -> CommandError {
            .launchFailed("resolv.conf", "cannot write \(file): \(path): \(SystemError.text(openingWithoutFollowing: code))")
        }
        for path in [Self.parent, directory] where mkdir(path, 0o755) != 0 {
            guard errno == EEXIST else { throw failure(path, errno) }
            switch PathStatus.of(path)?.kind {
            case .directory: continue
            case .symbolicLink: throw failure(path, ELOOP)
            default: throw failure(path, ENOTDIR)
            }
        }
        let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(file, errno) }
        defer { close(descriptor) }
        let text = TunnelResolvers.resolvConf(announcing: servers)
        if fchmod(descriptor, 0o644) != 0 { throw failure(file, errno) }
        if let code = Array(text.utf8).withUnsafeBytes({ FileDescriptor.writeAll(descriptor, $0) }) { throw failure(file, code) }
    }

    /// The host's resolvers as its resolv.conf lists them; a stub resolver on loopback
    /// (systemd-resolved's 127.0.0.53) is replaced by the upstreams it reports.
    package static func hostResolvers(resolvConf: String = "/etc/resolv.conf",
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
    package func remove() {
        try? FileManager.default.removeItem(atPath: directory)
        rmdir(Self.parent)   // fails, harmlessly, while another namespace's folder is there
    }
}
