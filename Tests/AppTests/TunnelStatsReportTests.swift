import App
import Foundation
import Shared
import Testing

@Suite struct TunnelStatsReportTests {
    /// Every group present and every counter different from every other, so a line showing the
    /// wrong field cannot pass.
    static let everything: TunnelStats = {
        var counter: UInt64 = 100
        func next() -> UInt64 { counter += 1; return counter }
        let pipeline = PipelineStats(
            packetsHandled: next(), bytesHandled: next(),
            parseDrops: ParseDropStats(tooShort: next(), unsupportedVersion: next(), badHeaderLength: next(),
                                       totalLengthBeyondBuffer: next(), extensionHeaderTruncated: next(),
                                       extensionChainTooLong: next(), badDataOffset: next(), truncatedL4: next(),
                                       badUDPLength: next()),
            packetsDroppedNoLocalAddress: next(), packetsCaptured: next(), captureFailures: next(),
            captureDisabledByFailure: true, lastCaptureError: "No space left\non device", packetsPublished: next(),
            liveFeedDrops: next(), storeBatchesWritten: next(), storeBatchesFailed: next(),
            packetsLostToStoreFailures: next(), lastStoreError: "database is locked", diskFull: true,
            flowsOpened: next(),
            flowsClosed: next(), flowsExpired: next(), flowsEvicted: next(), reinjectedRecorded: next(),
            quicVersionsObserved: next(),
            plaintext: {
                var plaintext = PlaintextStats(plaintextChunksWritten: next(), plaintextChunksExpired: next())
                plaintext.plaintextBytesStored = next()
                plaintext.plaintextBytesTruncated = next()
                plaintext.plaintextChunksRefused = next()
                plaintext.plaintextWriteFailures = next()
                plaintext.plaintextFilesReclaimed = next()
                plaintext.plaintextDisabledByFailure = true
                plaintext.lastPlaintextError = "cannot write decrypted-content file: ENOSPC"
                return plaintext
            }(),
            retention: RetentionStats(sweeps: next(), capturesReclaimed: next(), bytesReclaimed: next(), flowsPruned: next(),
                                      retentionFailures: next(), lastRetentionError: "EACCES"),
            dnsNames: DNSNameStats(repliesRecorded: next(), addressesLearned: next(), unreadableDatagrams: next(),
                                   flowsNamed: next(), notAResponse: next(), unsupportedOpcode: next(),
                                   errorResponse: next(), unsupportedQuestion: next(), unusableName: next(),
                                   noAddresses: next()),
            quicNames: QUICNameStats(initialsSeen: next(), initialsOpened: next(), initialsUnopenable: next(),
                                     helloIncomplete: next(), flowsNamed: next(), flowsWithoutName: next(),
                                     serverAnswersRead: next(), serverInitialsUnopenable: next()))
        let relay = RelayStats(
            tcpFlowsOpened: next(), tcpFlowsClosed: next(), udpFlowsOpened: next(), connectFailures: next(),
            portUnreachableAnswers: next(), bytesFromDevice: next(), bytesToDevice: next(), emitterFailures: next(), segmentsRefused: next(),
            dnsQueriesSent: next(), dnsRepliesReceived: next(), streamOpeningsTLS: next(), streamOpeningsHTTP: next(),
            streamOpeningsUnrecognised: next(), streamsUpgradedToTLS: next(), plaintextUpgradesAbandoned: next(),
            inspection: InspectionStats(inspectionCandidates: next(), terminationsOpened: next(),
                                        inspectionsAbandoned: next(), pinnedHostSkips: next(), flowsInspected: next(),
                                        flowsPinned: next(), terminationsFailed: next()))
        let shell = ShellStats(
            device: ShellStats.Device(readFailures: [:], writeDrops: ["EAGAIN": next(), "EIO": next()],
                                      kernel: DeviceKernelCounters(queueDrops: next(), datagramsRead: next()),
                                      kernelProblem: "Operation not permitted"),
            sockets: ShellStats.Sockets(socketFailures: next(), connectFailures: next(), sendFailures: next(),
                                        receiveFailures: next(), shutdownFailures: next(), watchFailures: next(),
                                        udpSendsLost: next(), connectFailuresByErrno: ["ECONNREFUSED": next(),
                                                                                       "ENETUNREACH": next()]))
        var stats = TunnelStats(pipeline: pipeline, relay: relay,
                                resolvers: ResolverStatus(announced: ["198.18.0.53", "fd00:18::53"], reportedAtStart: [],
                                                          reportedNow: ["198.18.0.53"]),
                                shell: shell)
        stats.control = ControlStats(commandsAnswered: next(), refusedOverLong: next(), closedIdle: next(),
                                     refusedOverCap: next(), clientsGone: next(), acceptFailures: next())
        return stats
    }()

    /// The leaves of the JSON `stats --json` prints, by dotted path, as text: the one place that
    /// walks the encoding, so the report cannot forget a counter the wire carries.
    static func jsonLeaves(_ stats: TunnelStats) throws -> [String: String] {
        let data = ControlChannel.encode(ControlResponse.stats(stats))
        let message = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var leaves: [String: String] = [:]
        func walk(_ value: Any, _ path: String) {
            // An empty count by errno is a leaf, a claim of none, as the report shows it.
            if let object = value as? [String: Any], object.isEmpty {
                leaves[path] = "none"
            } else if let object = value as? [String: Any] {
                for (key, inner) in object { walk(inner, path.isEmpty ? key : "\(path).\(key)") }
            } else {
                leaves[path] = "\(value)"
            }
        }
        walk(try #require(message["stats"]), "")
        return leaves
    }

    /// The report's lines, by dotted path; a path listed twice is recorded as an issue.
    static func reportPaths(_ report: TunnelStatsReport) -> [String: String] {
        var paths: [String: String] = [:]
        for group in report.groups {
            for line in group.lines {
                let path = "\(group.path).\(line.name)"
                #expect(paths[path] == nil, "\(path) is listed twice")
                paths[path] = line.value
            }
        }
        return paths
    }

    @Test("every counter the JSON carries is in the report exactly once, under its JSON name, with its value")
    func everyCounterAppearsOnceWithItsValue() throws {
        let leaves = try Self.jsonLeaves(Self.everything)
        let lines = Self.reportPaths(TunnelStatsReport(Self.everything))
        #expect(Set(lines.keys) == Set(leaves.keys))
        for (path, value) in lines where !path.hasPrefix("resolvers.") {
            guard let leaf = leaves[path] else { continue }
            // Numbers as decimals, true as "yes", strings quoted.
            let flags = ["ByFailure", "diskFull"]
            let expected = leaf == "1" && flags.contains(where: path.hasSuffix) ? "yes" : leaf
            #expect(value == expected || value == expected.debugDescription, "\(path): \(value) vs \(leaf)")
        }
        #expect(lines["pipeline.lastCaptureError"] == #""No space left\non device""#)
        #expect(lines["resolvers.announced"] == "198.18.0.53, fd00:18::53")
        #expect(lines["resolvers.reportedAtStart"] == "none")
    }

    @Test("a group the tunnel did not report is absent, never zeros; so is a message it does not have")
    func absentGroupsAreAbsent() throws {
        let bare = TunnelStats(pipeline: .zero, relay: .zero, resolvers: nil)
        let report = TunnelStatsReport(bare)
        #expect(report.groups.map(\.path) == ["pipeline", "pipeline.parseDrops", "pipeline.dnsNames", "pipeline.quicNames",
                                              "relay"])
        #expect(Set(Self.reportPaths(report).keys) == Set(try Self.jsonLeaves(bare).keys))
        #expect(!report.text.contains("inspection") && !report.text.contains("lastStoreError"))
        let stopping = TunnelStatsReport(TunnelStats(pipeline: .zero, relay: nil))
        #expect(!stopping.groups.contains { $0.path.hasPrefix("relay") })
    }

    @Test("the shell's counts by errno show one line per errno, in order, and none when there are none")
    func countsByErrnoAreLinesOfTheirOwn() {
        let shell = ShellStats(device: ShellStats.Device(writeDrops: ["EIO": 2, "EAGAIN": 5]),
                               sockets: ShellStats.Sockets(connectFailures: 3,
                                                           connectFailuresByErrno: ["ETIMEDOUT": 1, "ECONNREFUSED": 2]))
        let report = TunnelStatsReport(TunnelStats(pipeline: .zero, shell: shell))
        let device = report.groups.first { $0.path == "shell.device" }
        #expect(device?.title == "what the TUN device refused (0 reads failed, 7 datagrams lost) and what the kernel counted on it (not known)")
        #expect(device?.lines.map(\.name) == ["readFailures", "writeDrops.EAGAIN", "writeDrops.EIO"])
        #expect(device?.lines.first?.value == "none")
        let sockets = report.groups.first { $0.path == "shell.sockets" }
        #expect(sockets?.lines.suffix(2).map { "\($0.name)=\($0.value)" }
            == ["connectFailuresByErrno.ECONNREFUSED=2", "connectFailuresByErrno.ETIMEDOUT=1"])
        #expect(report.text.contains("  connectFailures                      3"))
    }

    @Test("what the kernel dropped at the device before the tunnel read it heads the device's group and is listed under its JSON name")
    func theKernelsDropsAreShown() {
        let counted = ShellStats(device: ShellStats.Device(kernel: DeviceKernelCounters(queueDrops: 36_790, datagramsRead: 43_210)))
        let device = TunnelStatsReport(TunnelStats(pipeline: .zero, shell: counted)).groups.first { $0.path == "shell.device" }
        #expect(device?.title.hasSuffix("(36790 datagrams dropped before the tunnel read them)") == true)
        #expect(device?.lines.suffix(2).map { "\($0.name)=\($0.value)" } == ["kernel.queueDrops=36790", "kernel.datagramsRead=43210"])
        let unread = ShellStats(device: ShellStats.Device(kernelProblem: "the kernel answered No such device"))
        let lines = TunnelStatsReport(TunnelStats(pipeline: .zero, shell: unread)).groups.first { $0.path == "shell.device" }?.lines
        #expect(lines?.last.map { "\($0.name)=\($0.value)" } == #"kernelProblem="the kernel answered No such device""#)
    }

    @Test("a watched interface's report says what its capture socket saw — the kernel's drops, frames not IP, frames cut — and has no relay sockets")
    func aWatchedInterfaceIsReportedAsSuch() {
        var device = ShellStats.Device(kernel: DeviceKernelCounters(queueDrops: 12, datagramsRead: 9_988))
        device.framesNotIP = 3
        device.framesCut = 0
        let report = TunnelStatsReport(TunnelStats(pipeline: .zero, shell: ShellStats(device: device)))
        let group = report.groups.first { $0.path == "shell.device" }
        #expect(group?.title == "what the capture socket on the watched interface saw (12 packets dropped by the kernel before they were read)")
        #expect(group?.lines.map { "\($0.name)=\($0.value)" }
            == ["readFailures=none", "kernel.queueDrops=12", "kernel.datagramsRead=9988", "framesNotIP=3", "framesCut=0"])
        #expect(!report.groups.contains { $0.path == "shell.sockets" })
    }

    @Test("the text heads each group and lines its values up, one counter a line")
    func theTextIsGroupedAndAligned() {
        var stats = TunnelStats(pipeline: PipelineStats(packetsHandled: 7, parseDrops: ParseDropStats(tooShort: 2, badUDPLength: 1)))
        stats.resolvers = ResolverStatus(announced: [], reportedAtStart: nil)
        let text = TunnelStatsReport(stats).text
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "pipeline — what was recorded")
        #expect(lines.contains("  packetsHandled                7"))
        #expect(lines.contains("pipeline.parseDrops — datagrams dropped unparseable, by reason (3 in all)"))
        #expect(lines.contains("  tooShort                  2"))
        #expect(lines.suffix(4) == ["resolvers — name resolution given to the namespace", "  announced              none",
                                    "  networkChanges         0", "  networkChangesLearned  0"])
    }
}
