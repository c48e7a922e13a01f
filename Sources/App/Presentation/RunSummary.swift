import Foundation
import Shared

/// What `tunnelvision run` prints when the monitored command ends: every connection it made, the
/// capture files and the history's path. Pure: the command hands in what the store and the
/// capture directory hold — or why the store could not say, which is never shown as
/// "0 connections".
public struct RunSummary: Sendable, Equatable {
    /// One connection as a person reads it: the far end, never the tunnel's own address.
    public struct Connection: Sendable, Equatable {
        public let proto: IPProtocolNumber
        /// The endpoint that is not the device's; nil when both or neither are local.
        public let remote: IPEndpoint?
        public let name: String?
        public let bytesOut: UInt64
        public let bytesIn: UInt64
        public let packets: UInt64
        public let duration: TimeInterval

        public init(proto: IPProtocolNumber, remote: IPEndpoint?, name: String?, bytesOut: UInt64, bytesIn: UInt64,
                    packets: UInt64, duration: TimeInterval) {
            self.proto = proto
            self.remote = remote
            self.name = name
            self.bytesOut = bytesOut
            self.bytesIn = bytesIn
            self.packets = packets
            self.duration = duration
        }

        public init(_ flow: StoredFlow, localAddresses: Set<IPAddress> = TunnelAddressing.localAddresses) {
            let aIsLocal = localAddresses.contains(flow.key.endpointA.address)
            let bIsLocal = localAddresses.contains(flow.key.endpointB.address)
            let remote: IPEndpoint? = aIsLocal == bIsLocal ? nil : (aIsLocal ? flow.key.endpointB : flow.key.endpointA)
            self.init(proto: flow.key.proto, remote: remote, name: flow.name?.text, bytesOut: flow.bytesOut,
                      bytesIn: flow.bytesIn, packets: flow.packetCount, duration: flow.duration)
        }
    }

    public struct CaptureFile: Sendable, Equatable {
        public let path: String
        public let bytes: UInt64

        public init(path: String, bytes: UInt64) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// The run's connections as the history holds them, or why they are not known.
    public enum Connections: Sendable, Equatable {
        case known([Connection])
        /// The history could not be read; the sentence says why.
        case unreadable(String)
    }

    public let command: String
    /// The command's exit status, or nil when a signal ended it.
    public let exitStatus: Int32?
    public let signal: Int32?
    public let connections: Connections
    public let captureFiles: [CaptureFile]
    public let databasePath: String
    /// The command ran as root because no user stood behind sudo to run it as.
    public let ranAsRoot: Bool

    public init(command: String, exitStatus: Int32?, signal: Int32?, connections: Connections,
                captureFiles: [CaptureFile], databasePath: String, ranAsRoot: Bool = false) {
        self.ranAsRoot = ranAsRoot
        self.command = command
        self.exitStatus = exitStatus
        self.signal = signal
        self.connections = connections
        self.captureFiles = captureFiles
        self.databasePath = databasePath
    }

    /// The table a person reads.
    public func text() -> String {
        var lines: [String] = []
        let ending = exitStatus.map { "exited with status \($0)" } ?? "was killed by signal \(signal ?? 0)"
        lines.append("\(command) \(ending)")
        if ranAsRoot { lines.append("\(command) ran as root") }
        switch connections {
        case let .unreadable(reason):
            lines.append("connections: not known — the history could not be read: \(reason)")
        case let .known(connections):
            lines.append(connections.count == 1 ? "1 connection:" : "\(connections.count) connections:")
            guard !connections.isEmpty else { break }
            var rows = [["PROTO", "REMOTE", "NAME", "OUT", "IN", "PACKETS", "DURATION"]]
            for connection in connections {
                rows.append([String(describing: connection.proto.displayName),
                             connection.remote.map(\.description) ?? "?",
                             connection.name ?? "-",
                             Self.bytes(connection.bytesOut), Self.bytes(connection.bytesIn),
                             "\(connection.packets)", String(format: "%.3f s", connection.duration)])
            }
            lines += Self.aligned(rows).map { "  " + $0 }
        }
        if captureFiles.isEmpty {
            lines.append("captures: none")
        } else {
            for (index, file) in captureFiles.enumerated() {
                lines.append((index == 0 ? "captures: " : "          ") + "\(file.path) (\(Self.bytes(file.bytes)))")
            }
        }
        lines.append("history:  \(databasePath)")
        return lines.joined(separator: "\n")
    }

    /// One JSON object, for scripts: `connections` is null and `historyProblem` says why when the
    /// history could not be read.
    public func json() -> String {
        var out = JSONWriter()
        out.beginObject()
        out.string("command", command)
        out.number("exitStatus", exitStatus.map(Int.init))
        out.number("signal", signal.map(Int.init))
        out.bool("ranAsRoot", ranAsRoot)
        switch connections {
        case let .known(connections):
            out.beginArray("connections")
            for connection in connections { Self.write(connection, to: &out) }
            out.endArray()
            out.string("historyProblem", nil)
        case let .unreadable(reason):
            out.key("connections")
            out.null()
            out.string("historyProblem", reason)
        }
        out.beginArray("captureFiles")
        for file in captureFiles {
            out.beginObject()
            out.string("path", file.path)
            out.number("bytes", file.bytes)
            out.endObject()
        }
        out.endArray()
        out.string("database", databasePath)
        out.endObject()
        return out.writer.string
    }

    private static func write(_ connection: Connection, to out: inout JSONWriter) {
        out.beginObject()
        out.string("protocol", connection.proto.displayName)
        if let remote = connection.remote {
            out.beginObject("remote")
            out.string("address", remote.address.description)
            out.number("port", Int(remote.port))
            out.endObject()
        } else {
            out.key("remote")
            out.null()
        }
        out.string("name", connection.name)
        out.number("bytesOut", connection.bytesOut)
        out.number("bytesIn", connection.bytesIn)
        out.number("packets", connection.packets)
        out.number("durationSeconds", connection.duration, decimals: 6)
        out.endObject()
    }

    /// 1 536 → "1.5 KiB": binary units, one decimal from KiB up.
    static func bytes(_ count: UInt64) -> String {
        if count < 1024 { return "\(count) B" }
        var value = Double(count)
        for unit in ["KiB", "MiB", "GiB", "TiB"] {
            value /= 1024
            if value < 1024 || unit == "TiB" { return String(format: "%.1f", value) + " " + unit }
        }
        return "\(count) B"
    }

    private static func aligned(_ rows: [[String]]) -> [String] {
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                line += cell
                if column < row.count - 1 { line += String(repeating: " ", count: widths[column] - cell.count + 2) }
            }
            return line
        }
    }
}
