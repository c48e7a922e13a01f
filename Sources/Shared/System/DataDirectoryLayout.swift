import Foundation

/// The names of everything TunnelVision keeps in its data directory — the one place they are
/// spelled. Both halves (the tunnel daemon and the commands that read) meet only here, as the app
/// and the extension meet in the App Group container on iOS.
public enum DataDirectoryLayout {
    /// The durable history (SQLite, WAL mode: `-wal` and `-shm` sidecars sit beside it).
    public static let databaseFileName = "TunnelVision.sqlite"
    /// The live feed: the memory-mapped ring of `PackedPacketMeta`.
    public static let ringFileName = "live-feed.ring"
    /// What the person decided: one JSON blob of `AppSettings`.
    public static let settingsFileName = "settings.json"
    /// The rotating `.pcap` files.
    public static let capturesDirectoryName = "captures"
    /// The rotating `.tvpt` files of decrypted content (only when the person keeps it).
    public static let plaintextDirectoryName = "plaintext"
    /// The control channel's Unix stream socket.
    public static let controlSocketName = "control.sock"
    /// The local certificate authority (`LocalCA`): a directory of its own, mode 0700, holding
    /// the root's private key (PKCS#8 PEM, mode 0600) and the root certificate (PEM).
    public static let caDirectoryName = "ca"
    public static let caKeyFileName = "root-key.pem"
    public static let caCertificateFileName = "root.pem"
    /// Where a running web app (`tunnelvision ui`) listens for `tunnelvision ui link`: a
    /// directory of its own, mode 0700, one Unix socket (0600) per server.
    public static let webLinksDirectoryName = "ui"
    /// The monitoring service (`tunnelvision up`): an empty file it holds an exclusive `flock` on
    /// for as long as it lives, so one runs per data directory and a killed one lets go at once.
    public static let serviceLockFileName = "service.lock"
    /// What the service says about itself (`ServiceRecord`, JSON), replaced whole at each change.
    public static let serviceRecordFileName = "service.json"
    /// What a service started in the background says once it is live (its stdout and stderr).
    public static let serviceLogFileName = "service.log"

    public static func database(in directory: URL) -> URL { directory.appendingPathComponent(databaseFileName) }
    public static func ring(in directory: URL) -> URL { directory.appendingPathComponent(ringFileName) }
    public static func settings(in directory: URL) -> URL { directory.appendingPathComponent(settingsFileName) }
    public static func captures(in directory: URL) -> URL {
        directory.appendingPathComponent(capturesDirectoryName, isDirectory: true)
    }
    public static func plaintext(in directory: URL) -> URL {
        directory.appendingPathComponent(plaintextDirectoryName, isDirectory: true)
    }
    public static func controlSocket(in directory: URL) -> URL { directory.appendingPathComponent(controlSocketName) }
    public static func caDirectory(in directory: URL) -> URL { directory.appendingPathComponent(caDirectoryName, isDirectory: true) }
    public static func caKey(in directory: URL) -> URL { caDirectory(in: directory).appendingPathComponent(caKeyFileName) }
    public static func caCertificate(in directory: URL) -> URL { caDirectory(in: directory).appendingPathComponent(caCertificateFileName) }
    public static func serviceLock(in directory: URL) -> URL { directory.appendingPathComponent(serviceLockFileName) }
    public static func serviceRecord(in directory: URL) -> URL { directory.appendingPathComponent(serviceRecordFileName) }
    public static func serviceLog(in directory: URL) -> URL { directory.appendingPathComponent(serviceLogFileName) }
    public static func webLinks(in directory: URL) -> URL {
        directory.appendingPathComponent(webLinksDirectoryName, isDirectory: true)
    }
}
