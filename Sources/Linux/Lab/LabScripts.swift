#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

/// The real programs the lab runs — the demo's and the end-to-end tests' servers and clients.
/// Each is a Python 3 file in `Scripts/` (Debian's python3 is the one interpreter they need),
/// shipped beside the build as a resource; these helpers return the command line that runs one.
package enum LabScripts {
    /// Answers A questions for the names of `names` (`NAME=ADDRESS`) with their addresses, every
    /// other A question with `address`, and every other question with no answer.
    package static func dnsResponder(bind: String, port: Int = Int(WellKnownPort.dns), answer address: String,
                                    names: [String] = []) -> [String] {
        [python, scriptPath("dns_responder"), bind, "\(port)", address] + names
    }

    /// Sends every datagram back upper-cased.
    package static func udpEcho(bind: String, port: Int) -> [String] {
        script("udp_echo", bind, "\(port)")
    }

    /// `count` parallel GETs of `url`; prints how many returned `expected` (a Python bytes escape,
    /// `\\n` for a newline).
    package static func parallelFetch(_ url: String, count: Int, expected: String) -> [String] {
        script("parallel_fetch", url, "\(count)", expected)
    }

    /// Sends `message` to a UDP echo, retrying, and prints the answer.
    package static func udpAsk(_ host: String, port: Int, message: String) -> [String] {
        script("udp_ask", host, "\(port)", message)
    }

    /// The command line that runs `Scripts/NAME.py` with `arguments`.
    package static func script(_ name: String, _ arguments: String...) -> [String] {
        [python, scriptPath(name)] + arguments
    }

    /// Where the scripts are: `TunnelVision_Linux.resources/Scripts`, which the build places
    /// beside the binary. Looked up by hand rather than through `Bundle.module`, which stops the
    /// process when its bundle is missing (a binary copied away from its build).
    package static var scriptsDirectory: URL {
        Bundle.main.bundleURL.appendingPathComponent("TunnelVision_Linux.resources/Scripts")
    }

    /// Nil when every script is in place; else the sentence that says which is missing and where
    /// it was looked for, for the demo to refuse with before it builds anything.
    package static var missingScripts: String? {
        let missing = ["dns_responder", "udp_echo", "parallel_fetch", "udp_ask", "wait_for_listener", "https_server",
                       "quic_echo_server", "quic_ask"]
            .filter { !FileManager.default.isReadableFile(atPath: scriptPath($0)) }
        guard !missing.isEmpty else { return nil }
        return "the lab's scripts (\(missing.map { $0 + ".py" }.joined(separator: ", "))) are not in "
            + "\(scriptsDirectory.path); keep the TunnelVision_Linux.resources folder of the build beside the binary"
    }

    /// Where `Scripts/NAME.py` is.
    static func scriptPath(_ name: String) -> String {
        scriptsDirectory.appendingPathComponent(name + ".py").path
    }

    /// The Python interpreter itself, not a wrapper script (pyenv's shim would survive a kill of
    /// itself and leave a server running).
    package static let python: String = {
        let output = try? ExternalCommand.run(["python3", "-c", "import sys; print(sys.executable)"])
        return output?.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) ?? "python3"
    }()

    /// Starts `arguments` in `namespace` with its output discarded.
    package static func start(_ arguments: [String], in namespace: NetworkNamespace) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalCommand.locate("ip") ?? "/usr/sbin/ip")
        process.arguments = Array(namespace.command(arguments).dropFirst())
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Ends a started program. SIGKILL, because a child can inherit a blocked SIGTERM and
    /// outlive a polite request.
    package static func stop(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits until something accepts TCP connections at `host`:`port`, asked from `namespace`.
    package static func waitForListener(_ host: String, _ port: Int, from namespace: NetworkNamespace) throws(CommandError) {
        try namespace.run(script("wait_for_listener", host, "\(port)"))
    }
}
