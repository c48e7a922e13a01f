import Foundation

/// The names of everything TunnelVision keeps in its data directory — the one place they are
/// spelled. Both halves (the tunnel daemon and the commands that read) meet only here, as the app
/// and the extension meet in the App Group container on iOS.
package enum DataDirectoryLayout {
    /// The durable history (SQLite, WAL mode: `-wal` and `-shm` sidecars sit beside it).
    package static let databaseFileName = "TunnelVision.sqlite"
    /// The live feed: the memory-mapped ring of `PackedPacketMeta`.
    package static let ringFileName = "live-feed.ring"
    /// What the person decided: one JSON blob of `AppSettings`.
    package static let settingsFileName = "settings.json"
    /// The rotating `.pcap` files.
    package static let capturesDirectoryName = "captures"
    /// The rotating `.tvpt` files of decrypted content (only when the person keeps it).
    static let plaintextDirectoryName = "plaintext"
    /// The control channel's Unix stream socket.
    static let controlSocketName = "control.sock"
    /// The local certificate authority (`LocalCA`): a directory of its own, mode 0700, holding
    /// the root's private key (PKCS#8 PEM, mode 0600) and the root certificate (PEM).
    static let caDirectoryName = "ca"
    static let caKeyFileName = "root-key.pem"
    static let caCertificateFileName = "root.pem"
    /// Where a running web app (`tunnelvision ui`) listens for `tunnelvision ui link`: a
    /// directory of its own, mode 0700, one Unix socket (0600) per server.
    static let webLinksDirectoryName = "ui"
    /// The monitoring service (`tunnelvision up`): an empty file it holds an exclusive `flock` on
    /// for as long as it lives, so one runs per data directory and a killed one lets go at once.
    static let serviceLockFileName = "service.lock"
    /// What the service says about itself (`ServiceRecord`, JSON), replaced whole at each change.
    static let serviceRecordFileName = "service.json"
    /// What a service started in the background says once it is live (its stdout and stderr).
    static let serviceLogFileName = "service.log"

    package static func database(in directory: URL) -> URL { directory.appendingPathComponent(databaseFileName) }
    package static func ring(in directory: URL) -> URL { directory.appendingPathComponent(ringFileName) }
    package static func settings(in directory: URL) -> URL { directory.appendingPathComponent(settingsFileName) }
    package static func captures(in directory: URL) -> URL {
        directory.appendingPathComponent(capturesDirectoryName, isDirectory: true)
    }
    package static func plaintext(in directory: URL) -> URL {
        directory.appendingPathComponent(plaintextDirectoryName, isDirectory: true)
    }
    package static func controlSocket(in directory: URL) -> URL { directory.appendingPathComponent(controlSocketName) }
    package static func caDirectory(in directory: URL) -> URL { directory.appendingPathComponent(caDirectoryName, isDirectory: true) }
    package static func caKey(in directory: URL) -> URL { caDirectory(in: directory).appendingPathComponent(caKeyFileName) }
    package static func caCertificate(in directory: URL) -> URL { caDirectory(in: directory).appendingPathComponent(caCertificateFileName) }
    package static func serviceLock(in directory: URL) -> URL { directory.appendingPathComponent(serviceLockFileName) }
    package static func serviceRecord(in directory: URL) -> URL { directory.appendingPathComponent(serviceRecordFileName) }
    package static func serviceLog(in directory: URL) -> URL { directory.appendingPathComponent(serviceLogFileName) }
    package static func webLinks(in directory: URL) -> URL {
        directory.appendingPathComponent(webLinksDirectoryName, isDirectory: true)
    }
}
