import Foundation
import Shared

/// What `tunnelvision run` prints when the monitored command ends: every connection it made, the
/// capture files and the history's path. Pure: the command hands in what the store and the
/// capture directory hold — or why the store could not say, which is never shown as
/// "0 connections", and what the session failed to write, which is never shown as a complete list.
package struct RunSummary: Sendable, Equatable {
    /// One connection as a person reads it: the far end, never the tunnel's own address.
    package struct Connection: Sendable, Equatable {
        package let proto: IPProtocolNumber
        /// The endpoint that is not the device's; nil when both or neither are local.
        package let remote: IPEndpoint?
        package let name: String?
        package let bytesOut: UInt64
        package let bytesIn: UInt64
        package let packets: UInt64
        package let duration: TimeInterval
        /// When its first packet crossed; nil when not known (then it is never part of a burst).
        package let firstSeen: Date?
        package let tlsStatus: TLSInspectionStatus?
        /// Why it was not inspected, or how inspection broke it (`StoredFlow.inspectionReason`).
        package let inspectionReason: InspectionReason?
        /// Zeek's Community ID of the connection (`HistoryFlowWording.communityID`), to find it in
        /// other tools' records; nil when none is defined for it.
        package let communityID: String?

        package init(proto: IPProtocolNumber, remote: IPEndpoint?, name: String?, bytesOut: UInt64, bytesIn: UInt64,
                    packets: UInt64, duration: TimeInterval, firstSeen: Date? = nil, tlsStatus: TLSInspectionStatus? = nil,
                    inspectionReason: InspectionReason? = nil, communityID: String? = nil) {
            self.communityID = communityID
            self.firstSeen = firstSeen
            self.tlsStatus = tlsStatus
            self.inspectionReason = inspectionReason
            self.proto = proto
            self.remote = remote
            self.name = name
            self.bytesOut = bytesOut
            self.bytesIn = bytesIn
            self.packets = packets
            self.duration = duration
        }

        package init(_ flow: StoredFlow, localAddresses: Set<IPAddress> = TunnelAddressing.localAddresses) {
            let remote = LiveFeedAddressing.endpoints(of: flow.key, localAddresses: localAddresses)?.remote
            self.init(proto: flow.key.proto, remote: remote, name: flow.name?.text, bytesOut: flow.bytesOut,
                      bytesIn: flow.bytesIn, packets: flow.packetCount, duration: flow.duration, firstSeen: flow.firstSeen,
                      tlsStatus: flow.tlsStatus, inspectionReason: flow.inspectionReason,
                      communityID: HistoryFlowWording.communityID(flow.key))
        }

        /// How `TimelineBursts` sees it: alike by name (or address), port, protocol and status.
        var burstRow: TimelineBursts.Row {
            TimelineBursts.Row(likeness: (name ?? remote.map { "\($0.address)" }).map {
                TimelineBursts.Likeness(host: $0, port: remote?.port, proto: proto, status: tlsStatus)
            }, started: firstSeen)
        }
    }

    package struct CaptureFile: Sendable, Equatable {
        package let path: String
        package let bytes: UInt64

        package init(path: String, bytes: UInt64) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// The run's connections as the history holds them, or why they are not known.
    package enum Connections: Sendable, Equatable {
        /// Every connection, as the session wrote all of them.
        case known([Connection])
        /// What the history holds, while some of the session's writes failed (the sentence says
        /// which and why): connections may be missing or counted short.
        case incomplete([Connection], problem: String)
        /// The history could not be read; the sentence says why.
        case unreadable(String)

        /// These connections, told apart from a complete list when `losses` says writes failed.
        package func recorded(with losses: RecordingLosses) -> Connections {
            guard let problem = losses.historyProblem else { return self }
            return switch self {
            case let .known(connections): .incomplete(connections, problem: problem)
            case let .incomplete(connections, earlier): .incomplete(connections, problem: earlier + "; " + problem)
            case let .unreadable(reason): .unreadable(reason + "; and " + problem)
            }
        }

        /// Why the list is not the whole session; nil when it is.
        package var problem: String? {
            switch self {
            case .known: nil
            case let .incomplete(_, problem), let .unreadable(problem): problem
            }
        }
    }

    package let command: String
    /// The command's exit status, or nil when a signal ended it.
    package let exitStatus: Int32?
    package let signal: Int32?
    package let connections: Connections
    package let captureFiles: [CaptureFile]
    /// Why the capture files miss packets; nil when every capture write succeeded.
    package let captureProblem: String?
    package let databasePath: String
    /// Capture or history stopping on a failure (a full disk) while the tunnel went on.
    package let recordingStops: [RecordingStop]
    /// The command ran as root because no user stood behind sudo to run it as.
    package let ranAsRoot: Bool
    /// Why the tunnel stopped under the command, ending its network; nil when it did not.
    package let tunnelFailure: String?
    /// The command that reads the history again afterwards (`HistoryWhereabouts.readingCommand`):
    /// a run through sudo wrote where the person's own commands do not look.
    package let readingCommand: String?
    /// `run --inspect`'s trust probe, as one word (`TrustVerdict.word`); nil without inspection.
    package var inspectionTrust: String?
    /// The run's capture files that were gone when it ended (retention deleted them to keep within
    /// its limits while the run went on, or someone did by hand): named, never listed as if there.
    package var captureFilesGone: [String] = []
    /// Older connections retention removed from the history while this run went (by age: the
    /// history's age limit, here in its setting's words), any session's — those `analyze` added
    /// are dated by their capture, so an old capture's go first. Said, so a history that shrank
    /// is never a silent surprise.
    package var historyPruned: HistoryPruning?

    package struct HistoryPruning: Sendable, Equatable {
        package let count: UInt64
        package let ageLimit: RetentionAge

        package init(count: UInt64, ageLimit: RetentionAge) {
            self.count = count
            self.ageLimit = ageLimit
        }
    }
    /// What the kernel dropped at the TUN device before the tunnel read it; nil when not asked.
    package var deviceDrops: DeviceDrops?

    /// The kernel's counts at the device, or why they could not be read.
    package enum DeviceDrops: Sendable, Equatable {
        case counted(DeviceKernelCounters)
        case unknown(String)

        var counters: DeviceKernelCounters? { if case .counted(let counters) = self { counters } else { nil } }
        var problem: String? { if case .unknown(let problem) = self { problem } else { nil } }

        /// The summary's line; nil when nothing was dropped.
        var line: String? {
            switch self {
            case .counted(let counters): DeviceQueueDrops.sentence(counters).map { "lost before the tunnel: " + $0 }
            case .unknown(let problem): "drops before the tunnel: " + DeviceQueueDrops.unknown(problem)
            }
        }
    }

    package init(command: String, exitStatus: Int32?, signal: Int32?, connections: Connections,
                captureFiles: [CaptureFile], captureProblem: String? = nil, databasePath: String,
                recordingStops: [RecordingStop] = [], ranAsRoot: Bool = false, tunnelFailure: String? = nil,
                readingCommand: String? = nil) {
        self.readingCommand = readingCommand
        self.ranAsRoot = ranAsRoot
        self.tunnelFailure = tunnelFailure
        self.command = command
        self.exitStatus = exitStatus
        self.signal = signal
        self.connections = connections
        self.captureFiles = captureFiles
        self.captureProblem = captureProblem
        self.databasePath = databasePath
        self.recordingStops = recordingStops
    }

    /// How the command ended, as a sentence's predicate: "exited with status 3".
    package var ending: String {
        exitStatus.map { "exited with status \($0)" } ?? "was killed by signal \(signal ?? 0)"
    }

    /// The table a person reads.
    package func text() -> String {
        var lines: [String] = []
        lines.append("\(command) \(ending)")
        if ranAsRoot { lines.append("\(command) ran as root") }
        if let tunnelFailure { lines.append("the tunnel failed under it, which was stopped: \(tunnelFailure)") }
        switch connections {
        case let .unreadable(reason):
            lines.append("connections: not known — the history could not be read: \(reason)")
        case let .known(connections), let .incomplete(connections, _):
            let count = connections.count == 1 ? "1 connection" : "\(connections.count) connections"
            if let problem = self.connections.problem {
                lines.append("history incomplete: \(problem)")
                lines.append("\(count) recorded (some may be missing or counted short)" + (connections.isEmpty ? "" : ":"))
            } else {
                lines.append(count + ":")
            }
            guard !connections.isEmpty else { break }
            var rows = [["PROTO", "REMOTE", "NAME", "OUT", "IN", "PACKETS", "DURATION"]]
            for stretch in TimelineBursts.stretches(of: connections.map(\.burstRow)) {
                rows.append(Self.row(connections[stretch.rows]))
            }
            lines += Self.aligned(rows).map { "  " + $0 }
        }
        if let captureProblem { lines.append("captures incomplete: \(captureProblem)") }
        if captureFiles.isEmpty {
            lines.append("captures: none")
        } else {
            for (index, file) in captureFiles.enumerated() {
                lines.append((index == 0 ? "captures: " : "          ") + "\(file.path) (\(ByteCountText.binary(file.bytes)))")
            }
        }
        if !captureFilesGone.isEmpty {
            let count = captureFilesGone.count == 1 ? "1 earlier capture file" : "\(captureFilesGone.count) earlier capture files"
            lines.append("          \(count) of this run no longer there: deleted while it ran, by retention to keep "
                         + "the captures within their limits (or by hand)")
        }
        if let line = deviceDrops?.line { lines.append(line) }
        if let line = inspectionTally?.line { lines.append(line) }
        lines.append("history:  \(databasePath)" + (readingCommand.map { " — read it with: \($0)" } ?? ""))
        if let line = prunedLine { lines.append("          " + line) }
        if !recordingStops.isEmpty { lines.append("recording: " + recordingStops.map(\.summary).joined(separator: "; ")) }
        return lines.joined(separator: "\n")
    }

    /// One JSON object, for scripts: `historyComplete` is false and `historyProblem` says why when
    /// the list is not the whole session — `connections` is then what was written, or null when the
    /// history could not be read; `captureComplete` and `captureProblem` likewise for the captures;
    /// `captureFilesGone` the run's files deleted while it ran; `deviceQueueDrops` (null when not
    /// known, `deviceCountsProblem` says why) what the kernel dropped before the tunnel read it;
    /// `bursts` says which connections the text shows as one row (`TimelineBursts`).
    package func json() -> String {
        var out = JSONWriter()
        out.beginObject()
        out.string("command", command)
        out.number("exitStatus", exitStatus.map(Int.init))
        out.number("signal", signal.map(Int.init))
        out.bool("ranAsRoot", ranAsRoot)
        out.string("tunnelFailure", tunnelFailure)
        if let inspectionTrust { out.string("inspectionTrust", inspectionTrust) }
        if let inspectionTally { inspectionTally.write(to: &out) }
        switch connections {
        case let .known(connections), let .incomplete(connections, _):
            out.beginArray("connections")
            for connection in connections { Self.write(connection, to: &out) }
            out.endArray()
            // Where the text shows a burst as one row: the first connection's index and how many.
            out.beginArray("bursts")
            for stretch in TimelineBursts.stretches(of: connections.map(\.burstRow)) where stretch.rows.count > 1 {
                out.beginObject()
                out.number("first", stretch.rows.lowerBound)
                out.number("count", stretch.rows.count)
                out.endObject()
            }
            out.endArray()
        case .unreadable:
            out.key("connections")
            out.null()
            out.key("bursts")
            out.null()
        }
        out.bool("historyComplete", connections.problem == nil)
        out.string("historyProblem", connections.problem)
        out.beginArray("captureFiles")
        for file in captureFiles {
            out.beginObject()
            out.string("path", file.path)
            out.number("bytes", file.bytes)
            out.endObject()
        }
        out.endArray()
        out.strings("captureFilesGone", captureFilesGone)
        out.bool("captureComplete", captureProblem == nil)
        out.string("captureProblem", captureProblem)
        out.number("deviceQueueDrops", deviceDrops?.counters.map { Int(clamping: $0.queueDrops) })
        out.number("deviceDatagramsRead", deviceDrops?.counters.map { Int(clamping: $0.datagramsRead) })
        out.string("deviceCountsProblem", deviceDrops?.problem)
        out.string("database", databasePath)
        out.string("readWith", readingCommand)
        out.number("historyPruned", historyPruned.map { Int(clamping: $0.count) } ?? 0)
        out.beginArray("recordingStopped")
        for stop in recordingStops {
            out.beginObject()
            out.string("part", stop.part.rawValue)
            out.number("packetsRecorded", stop.packetsRecorded)
            out.bool("diskFull", stop.diskFull)
            out.string("reason", stop.reason)
            out.endObject()
        }
        out.endArray()
        out.endObject()
        return out.writer.string
    }

    /// One connection's row, or a burst's (`TimelineBursts`): its name with how many started how
    /// close together, the sums of what they moved, and the time from the first start to the last end.
    private static func row(_ members: ArraySlice<Connection>) -> [String] {
        let first = members.first!
        let starts = members.compactMap(\.firstSeen)
        guard members.count > 1, let start = starts.min(), let lastStart = starts.max() else {
            return [first.proto.displayName, first.remote.map(\.description) ?? "?", first.name ?? "-",
                    ByteCountText.binary(first.bytesOut), ByteCountText.binary(first.bytesIn), "\(first.packets)", String(format: "%.3f s", first.duration)]
        }
        let end = members.compactMap { member in member.firstSeen.map { $0 + member.duration } }.max() ?? start
        return [first.proto.displayName, first.remote.map(\.description) ?? "?",
                "\(first.name ?? "-") — \(members.count) connections started within "
                    + HistoryFlowWording.duration(lastStart.timeIntervalSince(start)),
                ByteCountText.binary(members.reduce(0) { $0 + $1.bytesOut }), ByteCountText.binary(members.reduce(0) { $0 + $1.bytesIn }),
                "\(members.reduce(0) { $0 + $1.packets })", String(format: "%.3f s", end.timeIntervalSince(start))]
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
        out.string("communityID", connection.communityID)
        out.number("bytesOut", connection.bytesOut)
        out.number("bytesIn", connection.bytesIn)
        out.number("packets", connection.packets)
        out.number("durationSeconds", connection.duration, decimals: 6)
        out.string("tlsStatus", connection.tlsStatus.map(HistoryFlowWording.statusIdentifier))
        HistoryFlowWording.writeInspectionReason(connection.inspectionReason, to: &out)
        out.endObject()
    }

    static func aligned(_ rows: [[String]]) -> [String] {
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

extension RunSummary {
    /// "retention removed 407 connections older than a week from the history (…)"; nil when none.
    var prunedLine: String? {
        guard let pruned = historyPruned, pruned.count > 0 else { return nil }
        let count = pruned.count
        let age = switch pruned.ageLimit {
        case .oneDay: "a day"
        case .oneWeek: "a week"
        case .oneMonth: "a month"
        case .unlimited: "its limit"
        }
        let connections = count == 1 ? "1 connection" : "\(count) connections"
        return "retention removed \(connections) older than \(age) from the history (any session's; what 'analyze' "
            + "added is dated by its capture), as the setting \(SettingName.retentionAge.rawValue) asks"
    }
}
