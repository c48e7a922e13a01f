#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Linux

/// dumpcap (Wireshark's capture engine, installed with tshark) recording one interface of a lab
/// namespace into a pcap file: started and known to be capturing before any traffic, stopped with
/// SIGINT so the file is complete, and checked to have dropped nothing.
final class LabPacketCapture: @unchecked Sendable {
    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    let file: URL
    private let log: URL
    private let process: Process

    /// Starts capturing `interface` in `namespace` into `file`; returns once dumpcap has opened
    /// the interface and the file (it names the file only after both).
    init(interface: String, in namespace: NetworkNamespace, file: URL) throws {
        guard let dumpcap = ExternalCommand.locate("dumpcap") else {
            throw Failed(description: "dumpcap is not installed: scripts/test installs it (apt-get install tshark)")
        }
        self.file = file
        log = file.appendingPathExtension("log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw Failed(description: "cannot create \(log.path)")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalCommand.locate("ip") ?? "/usr/sbin/ip")
        // Through a tiny exec wrapper: a signal mask and dispositions are inherited across exec, and a
        // test runner's blocked or ignored SIGINT would leave dumpcap deaf to the request to stop.
        let unblocked = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
            + "signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])"
        process.arguments = Array(namespace.command([LabScripts.python, "-c", unblocked, dumpcap,
                                                     "-i", interface, "-P", "-w", file.path]).dropFirst())
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        for _ in 0..<200 {
            if messages.contains("File: ") { return }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        throw Failed(description: "dumpcap did not start capturing: \(messages)")
    }

    /// What dumpcap wrote on stderr so far.
    var messages: String {
        (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    }

    /// Stops the capture (SIGINT: dumpcap flushes and closes the file) and returns how many
    /// packets the interface delivered. Throws if dumpcap lingers or reports drops.
    func stop() throws -> Int {
        kill(process.processIdentifier, SIGINT)
        for _ in 0..<200 where process.isRunning { usleep(50_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw Failed(description: "dumpcap ignored SIGINT")
        }
        process.waitUntilExit()
        // "Packets received/dropped on interface 'veth-server': 161/0 (pcap:0/dumpcap:0/…)"
        guard let line = messages.split(separator: "\n").first(where: { $0.hasPrefix("Packets received/dropped") }),
              let counts = line.split(separator: ": ").dropFirst().first?.split(separator: " ").first?.split(separator: "/"),
              counts.count == 2, let received = Int(counts[0]), let dropped = Int(counts[1]) else {
            throw Failed(description: "dumpcap did not report its counts: \(messages)")
        }
        guard dropped == 0 else { throw Failed(description: "dumpcap dropped \(dropped) packets: \(line)") }
        return received
    }

    /// Ends dumpcap if it is still running (a failed recording); harmless after `stop()`.
    func abandon() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
