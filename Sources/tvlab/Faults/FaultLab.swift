#if canImport(Glibc)
import Glibc
#endif
import Linux
import Shared

/// The stage of `tvlab faults`: a lab, a file server and an echo server in its server namespace,
/// a private directory for data directories and downloads, and the way every scenario starts
/// `tunnelvision run` — always inside the lab's host namespace, so nothing leaves the machine.
final class FaultLab {
    static let httpPort = 8080
    static let echoPort: UInt16 = 7007
    /// Served by the file server; its bytes are a function of the offset, so any loss shows.
    static let bigFileName = "big.bin"

    let lab: Lab
    let tools: TunnelBenchTools
    let tunnelvision: String
    let directory: String
    let bigFileBytes: Int
    private var servers: [BenchProcess] = []
    private var counter = 0
    private var closed = false

    init(bigFileBytes: Int) throws(Failure) {
        tools = try TunnelBenchTools.locate(needTunnelvision: true)
        guard let tunnelvision = tools.tunnelvision else { throw Failure("no tunnelvision binary beside tvlab") }
        self.tunnelvision = tunnelvision
        self.bigFileBytes = bigFileBytes
        directory = try FileSystem.makeTemporaryDirectory(in: FileSystem.temporaryParent, prefix: "tvlab-faults-")
        do { lab = try Lab() } catch {
            FileSystem.removeTree(directory)
            throw Failure("cannot build the lab: \(error)")
        }
        do throws(Failure) {
            let www = directory + "/www"
            guard mkdir(www, 0o755) == 0 else { throw Failure("cannot make \(www)", errno: errno) }
            try Self.writePattern(to: www + "/" + Self.bigFileName, bytes: bigFileBytes)
            servers.append(try BenchProcess(lab.server.command([LabScripts.python, "-m", "http.server", String(Self.httpPort),
                                                                "--bind", Lab.serverIPv4, "--directory", www]),
                                            name: "file server"))
            servers.append(try BenchProcess(lab.server.command([tools.tvlab, "net", "echo-server", "--port", String(Self.echoPort)]),
                                            name: "echo server"))
            for port in [Self.httpPort, Int(Self.echoPort)] {
                do { try LabScripts.waitForListener(Lab.serverIPv4, port, from: lab.host) } catch {
                    throw Failure("the lab's server on port \(port) did not start: \(error)")
                }
            }
        } catch {
            close()
            throw error
        }
    }

    /// Stops the servers, removes the lab and the directory. Safe to call twice.
    func close() {
        guard !closed else { return }
        closed = true
        servers.reversed().forEach { $0.kill() }
        servers.removeAll()
        lab.removeSayingFailures()
        FileSystem.removeTree(directory)
    }

    deinit { close() }

    var bigFileURL: String { "http://\(Lab.serverIPv4):\(Self.httpPort)/\(Self.bigFileName)" }

    /// A fresh path under the suite's directory (not created).
    func path(_ name: String) -> String {
        counter += 1
        return "\(directory)/\(counter)-\(name)"
    }

    /// `tunnelvision run --data-dir DATA ARGUMENTS… -- COMMAND…` in the lab's host namespace.
    func run(data: String, _ options: [String] = [], command: [String], name: String,
             output: String? = nil, errors: String? = nil, prefix: [String] = []) throws(Failure) -> BenchProcess {
        try BenchProcess(prefix + lab.host.command([tunnelvision, "run", "--data-dir", data] + options + ["--"] + command),
                         name: name, output: output, errors: errors)
    }

    /// Byte `i` of the served file: varied, so a shifted or repeated block differs.
    static func patternByte(_ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: (index &* 2_654_435_761) >> 13) }

    static func writePattern(to path: String, bytes: Int) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure("cannot create \(path)", errno: errno) }
        defer { Glibc.close(descriptor) }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while offset < bytes {
            let count = min(chunk.count, bytes - offset)
            for index in 0..<count { chunk[index] = patternByte(offset + index) }
            let written = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, count) }
            guard written == count else { throw Failure("cannot write \(path)", errno: errno) }
            offset += count
        }
    }

    /// How many bytes of the download at `path` are missing or differ from the served file.
    func bytesLost(downloadedTo path: String) -> UInt64 {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return UInt64(bigFileBytes) }
        defer { Glibc.close(descriptor) }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        var wrong: UInt64 = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            for index in 0..<count where offset + index >= bigFileBytes || chunk[index] != Self.patternByte(offset + index) {
                wrong += 1
            }
            offset += count
        }
        return wrong + UInt64(max(0, bigFileBytes - offset))
    }

    /// The tunnel namespaces (`tvrun-…`) that exist now.
    static func tunnelNamespaces() throws(Failure) -> [String] {
        do { return try NetworkNamespace.names().filter { $0.hasPrefix("tvrun-") } } catch { throw Failure("\(error)") }
    }

    /// A `sleep` duration no other suite's command shares: `base` (which tells the scenarios
    /// apart) followed by this suite's pid, so a second suite on the machine — or one a crash
    /// left behind — is never taken for this one's, and never signalled by it.
    static func sleepMarker(_ base: Int) -> String { "\(base)\(getpid())" }

    /// Waits up to `seconds` for `condition`, polling; whether it came true.
    static func eventually(within seconds: Double, _ condition: () -> Bool) -> Bool {
        let waited = Stopwatch()
        while waited.elapsedSeconds < seconds {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// Pids whose command line starts with the whole words of `prefix` ("sleep 31337", "curl -sS
    /// -o PATH"): the monitored command itself, never the `tunnelvision run` whose arguments
    /// merely name it, nor a command whose last word merely begins the same ("sleep 313315").
    static func processes(startingWith prefix: String) -> [pid_t] {
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        var found: [pid_t] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = pid_t(name), pid != getpid() else { continue }
            let commandLine = BenchProcess.readText("/proc/\(pid)/cmdline").replacingNulls()
            // Each argument ends in a NUL, read as a space: the prefix's last word ends there too.
            if commandLine.hasPrefix(prefix + " ") { found.append(pid) }
        }
        return found
    }

    static func readText(_ path: String) -> String { BenchProcess.readText(path) }
}

extension String {
    /// /proc/PID/cmdline's NULs as spaces.
    func replacingNulls() -> String { String(map { $0 == "\0" ? " " : $0 }) }
}
