import Foundation
import Shared

/// What `tunnelvision run` prints when the monitored command ends: every connection it made, the
/// capture files and the history's path. Pure: the command hands in what the store and the
/// capture directory hold.
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

    public let command: String
    /// The command's exit status, or nil when a signal ended it.
    public let exitStatus: Int32?
    public let signal: Int32?
    public let connections: [Connection]
    public let captureFiles: [CaptureFile]
    public let databasePath: String

    public init(command: String, exitStatus: Int32?, signal: Int32?, connections: [Connection],
                captureFiles: [CaptureFile], databasePath: String) {
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
        let count = connections.count
        lines.append(count == 1 ? "1 connection:" : "\(count) connections:")
        if count > 0 {
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

    /// One JSON object, for scripts.
    public func json() -> String {
        var out = ASCIIWriter()
        out.append("{\"command\":\"")
        out.appendJSONEscaped(command)
        out.append("\",\"exitStatus\":")
        if let exitStatus { out.appendDecimal(exitStatus) } else { out.append("null") }
        out.append(",\"signal\":")
        if let signal { out.appendDecimal(signal) } else { out.append("null") }
        out.append(",\"connections\":[")
        for (index, connection) in connections.enumerated() {
            if index > 0 { out.append(",") }
            out.append("{\"protocol\":\"\(connection.proto.displayName)\",\"remote\":")
            if let remote = connection.remote {
                out.append("{\"address\":\"\(remote.address)\",\"port\":")
                out.appendDecimal(remote.port)
                out.append("}")
            } else {
                out.append("null")
            }
            out.append(",\"name\":")
            if let name = connection.name {
                out.append("\"")
                out.appendJSONEscaped(name)
                out.append("\"")
            } else {
                out.append("null")
            }
            out.append(",\"bytesOut\":")
            out.appendDecimal(connection.bytesOut)
            out.append(",\"bytesIn\":")
            out.appendDecimal(connection.bytesIn)
            out.append(",\"packets\":")
            out.appendDecimal(connection.packets)
            out.append(",\"durationSeconds\":" + String(format: "%.6f", connection.duration) + "}")
        }
        out.append("],\"captureFiles\":[")
        for (index, file) in captureFiles.enumerated() {
            if index > 0 { out.append(",") }
            out.append("{\"path\":\"")
            out.appendJSONEscaped(file.path)
            out.append("\",\"bytes\":")
            out.appendDecimal(file.bytes)
            out.append("}")
        }
        out.append("],\"database\":\"")
        out.appendJSONEscaped(databasePath)
        out.append("\"}")
        return out.string
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
