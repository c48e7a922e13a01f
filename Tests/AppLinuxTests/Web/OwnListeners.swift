import Foundation

/// The TCP ports this process listens on, read from the kernel: the inodes of /proc/self/fd's
/// sockets matched with /proc/net/tcp's and tcp6's LISTEN rows. "The server closed its port" is
/// asked this way, not by connecting: on a shared machine another test may bind the same
/// ephemeral port a moment after it is freed, and a connect would reach that one.
enum OwnListeners {
    static func ports() -> Set<UInt16> {
        let fdDirectory = "/proc/self/fd"
        let ownInodes = Set(((try? FileManager.default.contentsOfDirectory(atPath: fdDirectory)) ?? []).compactMap { entry -> String? in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: fdDirectory + "/" + entry),
                  target.hasPrefix("socket:[") else { return nil }
            return String(target.dropFirst("socket:[".count).dropLast())
        })
        var ports: Set<UInt16> = []
        for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
            guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
                guard fields.count > 9, fields[3] == "0A", ownInodes.contains(String(fields[9])),
                      let port = fields[1].split(separator: ":").last.flatMap({ UInt16($0, radix: 16) }) else { continue }
                ports.insert(port)
            }
        }
        return ports
    }
}
