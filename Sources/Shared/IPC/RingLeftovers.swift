/// The temporary files a producer builds a session's ring in (`live-feed.ring.new-PID`), named in
/// one place. A producer killed between creating one and renaming it over the ring leaves it
/// behind, 4 MiB of allocated disk; the next producer removes every one it finds, once it holds
/// the ring's lock and knows no live producer is building one. Pure: names in, names out.
enum RingLeftovers {
    /// Where the producer of process `pid` builds its new ring beside `ringPath`.
    static func temporaryPath(forRing ringPath: String, pid: Int32) -> String {
        "\(ringPath)\(separator)\(pid)"
    }

    /// The entries of the ring's directory that are temporary rings of `ringName`, in name order.
    static func leftovers(among names: [String], ringName: String) -> [String] {
        let prefix = ringName + separator
        return names.filter { $0.hasPrefix(prefix) && $0.count > prefix.count }.sorted()
    }

    private static let separator = ".new-"
}
