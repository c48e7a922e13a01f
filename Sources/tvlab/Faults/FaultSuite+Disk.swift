#if canImport(Glibc)
import Glibc
#endif
import Linux

extension FaultSuite {
    /// The data directory's size in the disk-full scenario: far less than the download.
    static let fullDiskSize = "8m"

    /// A 50 MB download through a tunnel whose data directory is an 8 MiB tmpfs (mounted in a
    /// private mount namespace, so no one else sees it): recording stops, the download arrives
    /// intact; then a second run on the same full directory does the same instead of crashing.
    func fullDisk() throws(Failure) {
        let data = dataDirectory("full")
        guard mkdir(data, 0o700) == 0 else { throw Failure("cannot make \(data)", errno: errno) }
        let output = lab.path("full.bin")
        let statuses = lab.path("full.status")
        let errors = lab.path("full.err")
        let runArguments = lab.lab.host.command([lab.tunnelvision, "run", "--data-dir", data, "--",
                                                 "curl", "-sS", "-o", output, lab.bigFileURL])
        // Two runs inside one private mount namespace: the second meets the directory the first filled.
        let script = "mount -t tmpfs -o size=\(Self.fullDiskSize),mode=0700 tvfaults \"$0\" || exit 99; "
            + "\"$@\"; first=$?; \"$@\"; echo \"$first $?\" > \(statuses)"
        let process = try BenchProcess(["unshare", "--mount", "--propagation", "private", "sh", "-c", script, data] + runArguments,
                                       name: "two runs on a full disk", errors: errors)
        let outcome = try process.wait(seconds: 240)
        let codes = text(statuses).split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int32($0) }
        let lost = lab.bytesLost(downloadedTo: output)
        report.bytesLost += lost
        let notice = text(errors).split(separator: "\n").first { $0.lowercased().contains("full") }
        record("a 50 MB download through an 8 MiB data directory, twice", outcome.succeeded && codes == [0, 0] && lost == 0,
               "statuses \(codes.map(String.init).joined(separator: ", ")), \(lost) bytes lost, "
                   + (notice.map { "\"\($0)\"" } ?? "no word of the full disk"))
    }
}
