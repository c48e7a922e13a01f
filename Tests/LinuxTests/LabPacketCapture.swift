#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Linux
import Shared
import TestSupport

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
    private let interface: String
    private let namespace: NetworkNamespace
    /// The interface's packets (received and sent, as the kernel counts them) when capturing began.
    private var packetsBefore = 0

    /// Starts capturing `interface` in `namespace` into `file`; returns once dumpcap has opened
    /// the interface and the file (it names the file only after both).
    init(interface: String, in namespace: NetworkNamespace, file: URL) throws {
        guard let dumpcap = ExternalCommand.locate("dumpcap") else {
            throw Failed(description: "dumpcap is not installed: scripts/test installs it (apt-get install tshark)")
        }
        self.file = file
        self.interface = interface
        self.namespace = namespace
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
            if messages.contains("File: ") {
                packetsBefore = try interfacePackets()
                return
            }
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

    /// Waits until the file holds every packet the interface passed since capturing began: dumpcap
    /// hands the kernel's packets to the file a buffer at a time, and a stop before then cuts the
    /// capture short. Throws after `seconds`.
    func waitUntilWritten(within seconds: Double = 10) throws {
        var passed = 0, written = 0
        let complete = try eventually(within: seconds) {
            passed = try interfacePackets() - packetsBefore
            written = try recordsWritten()
            return written >= passed
        }
        guard complete else { throw Failed(description: "the file holds \(written) of the \(passed) packets after \(seconds) s") }
    }

    /// The whole records the file holds so far, read by the product's own reader: dumpcap may be
    /// appending, and a record cut short at the end is not one yet.
    private func recordsWritten() throws -> Int {
        let reader = try PcapFileReader(path: file.path, accepting: .anyLinkLayer)
        var count = 0
        do throws(PcapFileReadError<Never>) {
            try reader.forEachRecord { _ in count += 1 }
        } catch {
            guard case .corrupt(.recordCutShort, _) = error else { throw error }
        }
        return count
    }

    /// The packets `interface` has received and sent, from the kernel's counters.
    private func interfacePackets() throws -> Int {
        let directory = "/sys/class/net/\(interface)/statistics"
        let counts = try namespace.run(["cat", "\(directory)/rx_packets", "\(directory)/tx_packets"]).standardOutput
            .split(separator: "\n").compactMap { Int($0) }
        guard counts.count == 2 else { throw Failed(description: "no packet counters for \(interface)") }
        return counts[0] + counts[1]
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
